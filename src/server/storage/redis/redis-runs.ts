import type { EventEnvelope } from '../../../core/protocol.ts';
import { EventLogConflictError } from '../../runs/event-log.ts';
import { RunClosedError } from '../../runs/run-handle.ts';
import { checkAppendBatch, withoutMessages } from '../append-rules.ts';
import { createAppendBatcher } from '../redis-append-batcher.ts';
import { toFields, toRun, toSession, toStrings } from '../redis-replies.ts';
import { APPEND_EVENTS, COMPACT_ENDED_RUNS, CREATE_RUN, GET_RUN } from '../redis-run-scripts.ts';
import { scriptArguments, wellFormedJson } from '../redis-script.ts';
import { takeOldestOverShards } from '../redis-shard-sweeps.ts';
import { settleUncertainAppend } from '../redis-uncertain-append.ts';
import { IdempotencyLockLostError } from '../storage-port.ts';
import type { RunStorage, StoredSession } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';
import { idempotencyArgs, idemKeys } from './redis-idempotency.ts';

/**
 * The runs and events role of the Redis store: a run lives in its subject's shard, its log is a
 * stream with entry ids `<seq>-0`, appends are batched per shard (`createAppendBatcher`) and a
 * dropped connection's append is settled (`settleUncertainAppend`); the doorbell is cross-process.
 */
export function createRedisRunStorage(context: RedisContext): RunStorage {
  const { connections, layout, run, send, directory, tails } = context;
  const { shards } = layout;
  const queueAppend = createAppendBatcher((base, moreKeys, batches) => {
    const call = scriptArguments(APPEND_EVENTS, { keys: {}, moreKeys, args: { batches } }, base);
    return connections.runScript(APPEND_EVENTS, call.keys, call.argv);
  });
  const readEvents: RunStorage['readEvents'] = async (runId, afterSeq, limit) => {
    const stream = (await directory.find(runId)).stream(runId);
    const count = limit === undefined || !Number.isFinite(limit) ? [] : ['COUNT', String(limit)];
    const reply = await send(['XRANGE', stream, `${afterSeq + 1}-0`, '+', ...count]);
    return (Array.isArray(reply) ? (reply as unknown[]) : []).map((entry) => {
      const fields = Array.isArray(entry) ? toStrings(entry[1]) : [];
      return JSON.parse(fields[1] ?? 'null') as EventEnvelope;
    });
  };

  return {
    async createRun(command) {
      const { session, run: created, started } = command;
      const sessionId = session.kind === 'new' ? session.session.sessionId : session.sessionId;
      const fresh = session.kind === 'new' ? session.session : null;
      const shard = layout.ofSubject(created.subjectId);
      const newIds = fresh === null ? [created.runId] : [sessionId, created.runId];
      await directory.record(newIds, shard);
      const reply = await run(
        CREATE_RUN,
        shard,
        {
          session: shard.session(sessionId),
          run: shard.run(created.runId),
          stream: shard.stream(created.runId),
          counters: shard.of('counters'),
          subjectActive: shard.subjectActive(created.subjectId),
          sessionRuns: shard.of(`session-runs:${sessionId}`),
          ...idemKeys(shard, command.idempotency?.recordId),
        },
        {
          mode: session.kind,
          sessionId,
          subjectId: created.subjectId,
          versionId: started.data.agent.versionId,
          runId: created.runId,
          userMessageId: created.userMessageId,
          createdAt: created.createdAt,
          start: JSON.stringify(created.start),
          started: JSON.stringify(started),
          hasTitle: command.title === null ? '0' : '1',
          title: command.title ?? '',
          leaseOwner: command.lease.owner,
          leaseExpiresAt: command.lease.expiresAt,
          ...idempotencyArgs(command.idempotency),
          sessionSubject: fresh?.subjectId ?? '',
          sessionCreatedAt: fresh?.createdAt ?? '',
          sessionHasTitle: fresh?.title == null ? '0' : '1',
          sessionTitle: fresh?.title ?? '',
          replaces: command.replacesRunId ?? '',
          leaves: command.leavesHistory ?? [],
        },
      );
      const [kind, detail] = Array.isArray(reply) ? (reply as unknown[]) : [];
      if (kind !== 'created') await directory.forget(newIds);
      switch (kind) {
        case 'session_not_found':
          return { kind: 'session_not_found' };
        case 'idempotency_lost':
          return { kind: 'idempotency_lost' };
        case 'version_mismatch':
          return { kind: 'version_mismatch', agentVersionId: String(detail) };
        case 'run_active':
          return { kind: 'run_active', activeRunId: String(detail) };
        case 'not_latest_run':
          return { kind: 'not_latest_run' };
      }
      return { kind: 'created', session: toSession(sessionId, toFields(detail)) as StoredSession };
    },
    async getRun(runId) {
      const shard = await directory.find(runId);
      const reply = await run(GET_RUN, shard, { run: shard.run(runId) }, {});
      if (!Array.isArray(reply)) return null;
      const [fields, messages] = reply as [unknown, unknown];
      return toRun(runId, toFields(fields), toStrings(messages));
    },
    async appendEvents(runId, expectedLastSeq, events, options = {}) {
      const isEnding = checkAppendBatch(runId, expectedLastSeq, events, options);
      const shard = await directory.find(runId);
      const last = events[events.length - 1];
      const snapshot = isEnding ? options.finalSnapshot : undefined;
      const messages = snapshot?.messages ?? [];
      const batch = {
        runId,
        expectedLastSeq: String(expectedLastSeq),
        events: events.map((event) => JSON.stringify(event)),
        ending: isEnding ? '1' : '0',
        endedAt: String(last?.timestamp ?? ''),
        snapshot: snapshot === undefined ? '' : JSON.stringify(withoutMessages(snapshot)),
        messageIds: JSON.stringify(messages.map((message) => message.messageId)),
        messages: messages.flatMap((message) => [message.messageId, JSON.stringify(message)]),
        ...idempotencyArgs(options.idempotency),
      };
      const queued = {
        base: shard.base,
        keys: [shard.run(runId), shard.stream(runId), shard.idem(options.idempotency?.recordId ?? '')] as const,
        json: wellFormedJson(batch),
      };
      const reply = await queueAppend(queued).catch((error: unknown) => {
        if (!connections.isConnectionError(error) || last === undefined) throw error;
        return settleUncertainAppend({
          expectedLastSeq,
          count: events.length,
          lastEventId: last.eventId,
          readLastSeq: async () => {
            const lastSeq = await send(['HGET', shard.run(runId), 'lastSeq']);
            return typeof lastSeq === 'string' ? Number(lastSeq) : null;
          },
          readEventIdAt: async (seq) => (await readEvents(runId, seq - 1, 1))[0]?.eventId ?? null,
          resend: () => queueAppend(queued),
          isConnectionError: (failure) => connections.isConnectionError(failure),
        });
      });
      switch (reply[0]) {
        case 'missing':
          throw new RangeError(`Run ${runId} does not exist.`);
        case 'closed':
          throw new RunClosedError(runId);
        case 'conflict':
          throw new EventLogConflictError(runId, expectedLastSeq, Number(reply[1]));
        case 'idempotency_lost':
          throw new IdempotencyLockLostError(options.idempotency?.recordId ?? '');
      }
    },
    readEvents,
    readTail: async (runId, afterSeq, limit) =>
      tails.held(runId, afterSeq, limit ?? Number.POSITIVE_INFINITY) ?? readEvents(runId, afterSeq, limit),
    subscribe: (runId, onWake) => tails.subscribe(runId, onWake),
    async compactEndedRuns(endedBefore, limit) {
      return takeOldestOverShards({
        shards,
        limit,
        send: connections.send,
        index: (shard) => shard.of('ended'),
        upTo: `(${endedBefore}`,
        take: async (shard, count) =>
          Number(await run(COMPACT_ENDED_RUNS, shard, { ended: shard.of('ended') }, { endedBefore, limit: count })),
      });
    },
  };
}
