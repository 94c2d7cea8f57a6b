import type { EventEnvelope, RunSnapshot, SnapshotMessage } from '../../core/protocol.ts';
import { EventLogConflictError } from '../runs/event-log.ts';
import { RunClosedError } from '../runs/run-handle.ts';
import { checkAppendBatch, withoutMessages } from './append-rules.ts';
import { toFields, toPage, toRun, toSession, toStrings, toTurnLink } from './redis-replies.ts';
import {
  ABANDON_IDEMPOTENCY,
  BEGIN_IDEMPOTENCY,
  BIND_AG_UI_THREAD,
  COMPLETE_IDEMPOTENCY,
  COUNT_SESSION_MESSAGES,
  COUNTS,
  DELETE_EXPIRED_IDEMPOTENCY,
  GET_OR_CREATE_SETTING,
  LIST_EXPIRED_LEASES,
  LIST_FINAL_SNAPSHOTS,
  LIST_MESSAGES,
  LIST_SESSIONS,
  LIST_TURN_LINKS,
  PUT_FEEDBACK,
  RENEW_LEASE,
  SET_AG_UI_SEGMENT,
  TAKE_EXPIRED_LEASE,
  UPDATE_SESSION_TITLE,
} from './redis-record-scripts.ts';
import { TAKE_RATE } from './redis-rate-script.ts';
import { DELETE_SESSION, ENFORCE_RETENTION, EVICT_SESSION, NEXT_EVICTION } from './redis-retention-script.ts';
import { APPEND_EVENTS, COMPACT_ENDED_RUNS, CREATE_RUN, GET_RUN, SHOW_BRANCH } from './redis-run-scripts.ts';
import type { RunScript, StorageScript } from './redis-script.ts';
import { scriptArguments, wellFormedJson } from './redis-script.ts';
import type { BlockingConnection } from './redis-tails.ts';
import { createRedisTails } from './redis-tails.ts';
import { createAppendBatcher } from './redis-append-batcher.ts';
import { settleUncertainAppend } from './redis-uncertain-append.ts';
import { createRedisExecutorLeases, REDIS_EXECUTOR_SCRIPTS } from './redis-executor-leases.ts';
import { createRedisLayout } from './redis-keys.ts';
import type { ShardKeys } from './redis-keys.ts';
import { createShardDirectory } from './redis-shard-directory.ts';
import {
  checkRoomOverShards,
  countOverShards,
  enforceStoreCapsOverShards,
  takeOldestOverShards,
} from './redis-shard-sweeps.ts';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.ts';
import { IdempotencyLockLostError } from './storage-port.ts';
import type {
  AgentStorage,
  IdempotencyCompletion,
  SettledToolCall,
  StoredFeedback,
  StoredSession,
} from './storage-port.ts';

/** Every script of the Redis storage: `openRedisStorage` defines them on its client. */
export const REDIS_STORAGE_SCRIPTS: readonly StorageScript[] = [
  ABANDON_IDEMPOTENCY,
  APPEND_EVENTS,
  BEGIN_IDEMPOTENCY,
  BIND_AG_UI_THREAD,
  COMPACT_ENDED_RUNS,
  COMPLETE_IDEMPOTENCY,
  COUNT_SESSION_MESSAGES,
  COUNTS,
  CREATE_RUN,
  DELETE_EXPIRED_IDEMPOTENCY,
  DELETE_SESSION,
  ENFORCE_RETENTION,
  EVICT_SESSION,
  GET_OR_CREATE_SETTING,
  GET_RUN,
  LIST_EXPIRED_LEASES,
  LIST_FINAL_SNAPSHOTS,
  LIST_MESSAGES,
  LIST_SESSIONS,
  LIST_TURN_LINKS,
  NEXT_EVICTION,
  PUT_FEEDBACK,
  RENEW_LEASE,
  SET_AG_UI_SEGMENT,
  SHOW_BRANCH,
  TAKE_EXPIRED_LEASE,
  TAKE_RATE,
  UPDATE_SESSION_TITLE,
  ...REDIS_EXECUTOR_SCRIPTS,
];

/**
 * What {@link createRedisStorage} runs on: a client (standalone, or a cluster that routes each
 * command and script by its first key), and a way to open blocking connections.
 */
export interface RedisConnections {
  /** Runs one of {@link REDIS_STORAGE_SCRIPTS} with its keys and its JSON values (`EVALSHA`, `EVAL` once unknown). */
  runScript(script: StorageScript, keys: string[], argv: string): Promise<unknown>;
  /** Sends one command to the node holding `key`. */
  send(key: string, args: string[]): Promise<unknown>;
  /** Opens a connection of its own to the node holding `key` (each waiting group of live tails holds one). */
  openConnection(key: string): Promise<BlockingConnection>;
  /** True for a failure that says nothing about whether Redis ran the command (not a reply of Redis: a dropped connection). */
  isConnectionError(error: unknown): boolean;
  /** True on Redis Cluster: each subject's keys then share its shard's hash tag (`redis-keys.ts`). */
  isCluster: boolean;
  /** Closes the client. */
  close: () => Promise<void>;
}

/** Options of {@link createRedisStorage}. */
export interface RedisStorageOptions {
  connections: RedisConnections;
  /** Prepended to every key (default `agent-chat:`), so several deployments can share one Redis. */
  keyPrefix?: string;
  /** Runs one blocking `XREAD` waits on at most (default 64). */
  tailGroupSize?: number;
  /** Where connection failures of the live tails are reported. Default `console.error`. */
  onError?: (error: unknown) => void;
}

/**
 * Creates the Redis {@link AgentStorage} (docs/server.md, "Redis") over `connections`: event logs
 * are streams with entry ids `<seq>-0`, every write that changes several keys is one Lua script
 * in one shard (so it is atomic and fenced), and the doorbell is cross-process (`XREAD BLOCK`, see
 * `createRedisTails`), so a reader on any process follows a run produced on another. A standalone
 * Redis is one shard; on Redis Cluster a subject's records live in the shard of its id
 * (`redis-keys.ts`), a method given only a session or run id finds it through the shard
 * directory (`redis-shard-directory.ts`), and the sweeps go over every shard
 * (`redis-shard-sweeps.ts`).
 */
export function createRedisStorage(options: RedisStorageOptions): AgentStorage {
  const { connections } = options;
  const prefix = options.keyPrefix ?? 'agent-chat:';
  if (connections.isCluster && /[{}]/.test(prefix))
    throw new RangeError('keyPrefix must not hold { or } on Redis Cluster.');
  const onError = options.onError ?? ((error: unknown) => console.error('[agent-chat] redis', error));
  const layout = createRedisLayout(prefix, connections.isCluster);
  const { shards } = layout;
  const isSharded = shards.length > 1;
  const run: RunScript = (script, shard, keyed, args) => {
    const call = scriptArguments(script, { keys: keyed, args }, shard.base);
    return connections.runScript(script, call.keys, call.argv);
  };
  // A command of one key, which is its first argument (HGETALL, XRANGE, SCARD, ...).
  const send = (args: string[]): Promise<unknown> => connections.send(args[1] ?? layout.global, args);
  const directory = createShardDirectory(layout, connections.send);
  const queueAppend = createAppendBatcher((base, moreKeys, batches) => {
    const call = scriptArguments(APPEND_EVENTS, { keys: {}, moreKeys, args: { batches } }, base);
    return connections.runScript(APPEND_EVENTS, call.keys, call.argv);
  });
  const tails = createRedisTails({
    send: connections.send,
    openConnection: (key) => connections.openConnection(key),
    locate: async (runId) => {
      const shard = await directory.find(runId);
      return { stream: shard.stream(runId), slot: shard.base };
    },
    groupSize: options.tailGroupSize ?? 64,
    onError,
  });
  const idempotencyArgs = (completion: IdempotencyCompletion | undefined): Record<string, string> =>
    completion === undefined
      ? { idemId: '', idemToken: '', idemResponse: '', idemExpiresAt: '' }
      : {
          idemId: completion.recordId,
          idemToken: completion.token,
          idemResponse: JSON.stringify(completion.response),
          idemExpiresAt: String(completion.expiresAt),
        };
  const idemKeys = (shard: ShardKeys, recordId: string | undefined): Record<string, string> => ({
    idem: shard.idem(recordId ?? ''),
    idemExpiry: shard.of('idem-expiry'),
  });
  /** Calls `call` for every shard (the calls sent together) and adds up their numeric replies. */
  const sumOverShards = async (call: (shard: ShardKeys) => Promise<unknown>): Promise<number> =>
    (await Promise.all(shards.map(call))).reduce<number>((sum, reply) => sum + Number(reply), 0);

  const readEvents: AgentStorage['readEvents'] = async (runId, afterSeq, limit) => {
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
    async getSession(sessionId) {
      const shard = await directory.find(sessionId);
      return toSession(sessionId, toFields(await send(['HGETALL', shard.session(sessionId)])));
    },
    async listSessions(subjectId, page) {
      const cursor = page.after === undefined ? undefined : decodeSessionCursor(page.after);
      if (cursor === null) return null;
      const shard = layout.ofSubject(subjectId);
      const reply = await run(
        LIST_SESSIONS,
        shard,
        { subjectActivity: shard.of(`subject-activity:${subjectId}`) },
        {
          subjectId,
          cursorScore: cursor?.updatedAt ?? '',
          cursorMember: cursor?.tieBreak ?? '',
          limit: page.limit,
        },
      );
      const rows = (Array.isArray(reply) ? (reply as unknown[]) : []).map((row) => {
        const [sessionId, fields, member, score] = Array.isArray(row) ? (row as unknown[]) : [];
        return {
          session: toSession(String(sessionId), toFields(fields)) as StoredSession,
          cursor: encodeSessionCursor({ updatedAt: Number(score), tieBreak: String(member) }),
        };
      });
      const found = toPage(rows, page.limit, (row) => row.cursor);
      return { items: found.items.map((row) => row.session), next: found.next };
    },
    async countSessionMessages(sessionId) {
      const shard = await directory.find(sessionId);
      return Number(await run(COUNT_SESSION_MESSAGES, shard, shard.messages(sessionId), { sessionId }));
    },
    async updateSessionTitle(request) {
      const shard = layout.ofSubject(request.subjectId);
      const reply = await run(
        UPDATE_SESSION_TITLE,
        shard,
        { session: shard.session(request.sessionId) },
        {
          sessionId: request.sessionId,
          subjectId: request.subjectId,
          title: request.title,
          hasExpected: request.expectedTitle === undefined ? '0' : '1',
          expectsNone: request.expectedTitle === null ? '1' : '0',
          expectedTitle: request.expectedTitle ?? '',
        },
      );
      const [kind, fields] = Array.isArray(reply) ? (reply as unknown[]) : [];
      if (kind === 'updated') return { kind, session: toSession(request.sessionId, toFields(fields)) as StoredSession };
      return { kind: kind === 'title_changed' ? 'title_changed' : 'not_found' };
    },
    async showBranch(request) {
      const shard = layout.ofSubject(request.subjectId);
      const reply = await run(
        SHOW_BRANCH,
        shard,
        { session: shard.session(request.sessionId) },
        { sessionId: request.sessionId, subjectId: request.subjectId, leave: request.leave, enter: request.enter },
      );
      const [kind, detail] = Array.isArray(reply) ? (reply as unknown[]) : [];
      if (kind === 'run_active') return { kind, activeRunId: String(detail) };
      if (kind !== 'shown') return { kind: 'not_found' };
      return { kind, session: toSession(request.sessionId, toFields(detail)) as StoredSession };
    },
    async deleteSession(request) {
      const shard = layout.ofSubject(request.subjectId);
      const reply = await run(
        DELETE_SESSION,
        shard,
        { session: shard.session(request.sessionId) },
        { sessionId: request.sessionId, subjectId: request.subjectId },
      );
      const [kind, detail] = reply as [unknown, unknown];
      if (kind === 'run_active') return { kind, activeRunId: String(detail) };
      if (kind !== 'deleted') return { kind: 'not_found' };
      const runIds = toStrings(detail);
      await directory.forget([request.sessionId, ...runIds]);
      return { kind, runIds };
    },
    async listSessionRunIds(sessionId) {
      const shard = await directory.find(sessionId);
      return toStrings(await send(['ZRANGE', shard.of(`session-runs:${sessionId}`), '0', '-1']));
    },
    async listTurnLinks(sessionId) {
      const shard = await directory.find(sessionId);
      const reply = await run(LIST_TURN_LINKS, shard, { sessionRuns: shard.of(`session-runs:${sessionId}`) }, {});
      return (Array.isArray(reply) ? (reply as unknown[]) : []).map(toTurnLink);
    },
    async listMessages(sessionId, page) {
      const shard = await directory.find(sessionId);
      const limit = page.limit ?? -1;
      const reply = await run(LIST_MESSAGES, shard, shard.messages(sessionId), {
        sessionId,
        before: page.before ?? '',
        limit,
      });
      if (!Array.isArray(reply)) return null;
      const messages = toStrings(reply).map((json) => JSON.parse(json) as SnapshotMessage);
      return toPage(messages, limit < 0 ? messages.length : limit, (m) => m.messageId);
    },
    async listSettledToolCalls(sessionId) {
      const shard = await directory.find(sessionId);
      const pairs = toStrings(
        await run(LIST_FINAL_SNAPSHOTS, shard, { sessionRuns: shard.of(`session-runs:${sessionId}`) }, { sessionId }),
      );
      const calls: SettledToolCall[] = [];
      for (let index = 0; index + 1 < pairs.length; index += 2) {
        const snapshot = JSON.parse(pairs[index + 1] ?? '{}') as Partial<RunSnapshot>;
        for (const call of snapshot.toolCalls ?? []) calls.push({ ...call, runId: pairs[index] ?? '' });
      }
      return calls;
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
    async enforceRetention(request) {
      const { touched } = request;
      // One shard applies every cap in its script. On several, a create's own caps run in its
      // subject's shard, then the store caps over all shards, then a sweep's idle TTL in each
      // shard: the order of one shard's script.
      const inShard = async (shard: ShardKeys) => {
        const reply = await run(
          ENFORCE_RETENTION,
          shard,
          {
            sessions: shard.of('sessions'),
            runs: shard.of('runs'),
            activity: shard.of('activity'),
          },
          {
            cutoff: request.now - request.sessionIdleTtlMs,
            protectedFrom: request.now - request.protectActiveSessionsMs,
            maxSessionsPerSubject: request.maxSessionsPerSubject,
            maxRunsPerSession: request.maxRunsPerSession,
            maxSessions: request.maxSessions,
            maxRuns: request.maxRuns,
            storeCaps: isSharded ? '0' : '1',
            touched: touched?.sessionId ?? '',
            touchedSubject: touched?.subjectId ?? '',
          },
        );
        const [sessionIds, runIds] = Array.isArray(reply) ? (reply as [unknown, unknown]) : [[], []];
        return { sessionIds: toStrings(sessionIds), runIds: toStrings(runIds) };
      };
      if (!isSharded) return inShard(shards[0] as ShardKeys);
      const parts = [];
      if (touched !== undefined) parts.push(await inShard(layout.ofSubject(touched.subjectId)));
      const { now, maxSessions, maxRuns, protectActiveSessionsMs } = request;
      parts.push(
        await enforceStoreCapsOverShards({ shards, run, now, maxSessions, maxRuns, protectActiveSessionsMs, touched }),
      );
      if (touched === undefined) parts.push(...(await Promise.all(shards.map(inShard))));
      const gone = {
        sessionIds: parts.flatMap((part) => part.sessionIds),
        runIds: parts.flatMap((part) => part.runIds),
      };
      await directory.forget([...gone.sessionIds, ...gone.runIds]);
      return gone;
    },
    checkSessionRoom: (request) => checkRoomOverShards({ ...request, shards, run }),
    async beginIdempotency(request) {
      const shard = layout.ofSubject(request.subjectId);
      const [kind, response] = toStrings(
        await run(BEGIN_IDEMPOTENCY, shard, idemKeys(shard, request.recordId), {
          recordId: request.recordId,
          fingerprint: request.fingerprint,
          token: request.token,
          now: request.now,
          lockedUntil: request.lockedUntil,
          expiresAt: request.expiresAt,
        }),
      );
      if (kind === 'replay') return { kind, response: JSON.parse(response ?? 'null') };
      return { kind: kind === 'started' || kind === 'reused' ? kind : 'in_use' };
    },
    async completeIdempotency(completion) {
      const shard = layout.ofSubject(completion.subjectId);
      const reply = await run(COMPLETE_IDEMPOTENCY, shard, idemKeys(shard, completion.recordId), {
        recordId: completion.recordId,
        token: completion.token,
        response: JSON.stringify(completion.response),
        expiresAt: completion.expiresAt,
      });
      return reply === 1;
    },
    async abandonIdempotency(recordId, token, subjectId) {
      const shard = layout.ofSubject(subjectId);
      await run(ABANDON_IDEMPOTENCY, shard, idemKeys(shard, recordId), { recordId, token });
    },
    async deleteExpiredIdempotency(now) {
      return sumOverShards((shard) =>
        run(DELETE_EXPIRED_IDEMPOTENCY, shard, { idemExpiry: shard.of('idem-expiry') }, { now }),
      );
    },
    async renewLease(runId, owner, expiresAt) {
      const shard = await directory.find(runId);
      return (await run(RENEW_LEASE, shard, shard.leases(), { runId, owner, expiresAt })) === 1;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      const shard = await directory.find(runId);
      const reply = await run(
        TAKE_EXPIRED_LEASE,
        shard,
        { ...shard.leases(), run: shard.run(runId) },
        { runId, owner, now, expiresAt },
      );
      return reply === 1;
    },
    async listExpiredLeases(now, limit) {
      const leases = [];
      const replies = await Promise.all(
        shards.map(async (shard) => toStrings(await run(LIST_EXPIRED_LEASES, shard, shard.leases(), { now, limit }))),
      );
      for (const flat of replies) {
        for (let index = 0; index + 2 < flat.length; index += 3) {
          leases.push({
            runId: flat[index] as string,
            owner: flat[index + 1] as string,
            expiresAt: Number(flat[index + 2]),
          });
        }
      }
      return leases.sort((a, b) => a.expiresAt - b.expiresAt).slice(0, limit);
    },
    executorLeases: createRedisExecutorLeases(run, connections.send, layout),
    async countActiveRuns(subjectId) {
      return Number(await send(['SCARD', layout.ofSubject(subjectId).subjectActive(subjectId)]));
    },
    async takeRate(request) {
      const bucket = layout.rate(request.perMinute, request.bucket);
      // The bucket has a hash tag of its own: the script reads no shard key.
      const call = scriptArguments(
        TAKE_RATE,
        { keys: { bucket }, args: { perMinute: request.perMinute, now: request.now } },
        '',
      );
      const retryAfterMs = Number(await connections.runScript(TAKE_RATE, call.keys, call.argv));
      return retryAfterMs === 0 ? { isAllowed: true } : { isAllowed: false, retryAfterMs };
    },
    async bindAgUiThread({ subjectId, threadId, sessionId }) {
      const shard = layout.ofSubject(subjectId);
      await run(
        BIND_AG_UI_THREAD,
        shard,
        { session: shard.session(sessionId), agUiThreads: shard.of('ag-ui-threads') },
        { field: agUiThreadField(subjectId, threadId), sessionId },
      );
    },
    async findAgUiThread(subjectId, threadId) {
      const threads = layout.ofSubject(subjectId).of('ag-ui-threads');
      const sessionId = await send(['HGET', threads, agUiThreadField(subjectId, threadId)]);
      return typeof sessionId === 'string' ? sessionId : null;
    },
    async setAgUiSegment(runId, agUiRunId) {
      const shard = await directory.find(runId);
      await run(SET_AG_UI_SEGMENT, shard, { run: shard.run(runId) }, { runId, agUiRunId });
    },
    async getAgUiSegment(runId) {
      const shard = await directory.find(runId);
      const agUiRunId = await send(['HGET', shard.run(runId), 'agUiRunId']);
      return typeof agUiRunId === 'string' ? agUiRunId : null;
    },
    async putFeedback(feedback) {
      const shard = await directory.find(feedback.runId);
      const field = JSON.stringify([feedback.subjectId, feedback.messageId]);
      const reply = await run(
        PUT_FEEDBACK,
        shard,
        { run: shard.run(feedback.runId), feedback: shard.of(`feedback:${feedback.runId}`) },
        { runId: feedback.runId, field, vote: JSON.stringify(feedback) },
      );
      return reply === 1;
    },
    async listFeedback(runId, subjectId) {
      const shard = await directory.find(runId);
      const fields = toFields(await send(['HGETALL', shard.of(`feedback:${runId}`)]));
      const votes = Object.values(fields).map((json) => JSON.parse(json) as StoredFeedback);
      return votes
        .filter((vote) => vote.subjectId === subjectId)
        .sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
    },
    counts: () => countOverShards(shards, run),
    async getOrCreateSetting(name, proposed) {
      const settings = `${layout.global}settings`;
      const call = scriptArguments(
        GET_OR_CREATE_SETTING,
        { keys: { settings }, args: { name, proposed } },
        layout.global,
      );
      return String(await connections.runScript(GET_OR_CREATE_SETTING, call.keys, call.argv));
    },
    async checkReady() {
      if ((await connections.send(layout.global, ['PING'])) !== 'PONG')
        throw new Error('Redis did not answer PING with PONG.');
    },
    async close() {
      tails.close();
      await connections.close();
    },
  };
}

/** The field of a subject's AG-UI thread in the `ag-ui-threads` hash: both ids, unambiguously. */
function agUiThreadField(subjectId: string, threadId: string): string {
  return JSON.stringify([subjectId, threadId]);
}
