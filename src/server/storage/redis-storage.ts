import type { EventEnvelope, RunSnapshot, SnapshotMessage } from '../../core/protocol.ts';
import { EventLogConflictError } from '../runs/event-log.ts';
import { RunClosedError } from '../runs/run-handle.ts';
import { checkAppendBatch, withoutMessages } from './append-rules.ts';
import { toFields, toPage, toRun, toSession, toStrings } from './redis-replies.ts';
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
  PUT_FEEDBACK,
  RENEW_LEASE,
  SET_AG_UI_SEGMENT,
  TAKE_EXPIRED_LEASE,
  UPDATE_SESSION_TITLE,
} from './redis-record-scripts.ts';
import { TAKE_RATE } from './redis-rate-script.ts';
import { DELETE_SESSION, ENFORCE_RETENTION } from './redis-retention-script.ts';
import { APPEND_EVENTS, COMPACT_ENDED_RUNS, CREATE_RUN, GET_RUN } from './redis-run-scripts.ts';
import type { RedisScript, SendCommand } from './redis-script.ts';
import { runRedisScript } from './redis-script.ts';
import type { BlockingConnection } from './redis-tails.ts';
import { createRedisTails } from './redis-tails.ts';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.ts';
import { IdempotencyLockLostError } from './storage-port.ts';
import type {
  AgentStorage,
  IdempotencyCompletion,
  SettledToolCall,
  StoredFeedback,
  StoredSession,
} from './storage-port.ts';

/** What {@link createRedisStorage} runs on: one command connection, and a way to open blocking ones. */
export interface RedisConnections {
  send: SendCommand;
  /** Opens a connection of its own (each waiting group of live tails holds one). */
  openConnection: () => Promise<BlockingConnection>;
  /** Closes the command connection. */
  close: () => Promise<void>;
}

/** Options of {@link createRedisStorage}. */
export interface RedisStorageOptions {
  connections: RedisConnections;
  /** Prepended to every key (default `agent-chat:`), so several deployments can share one Redis. */
  keyPrefix?: string;
  /** Runs one blocking `XREAD` waits on at most (default 16). */
  tailGroupSize?: number;
  /** Where connection failures of the live tails are reported. Default `console.error`. */
  onError?: (error: unknown) => void;
}

/**
 * Creates the Redis {@link AgentStorage} (docs/server.md, "Redis") over `connections`: event logs
 * are streams with entry ids `<seq>-0`, every write that changes several keys is one Lua script
 * (so it is atomic and fenced), and the doorbell is cross-process (`XREAD BLOCK`, see
 * `createRedisTails`), so a reader on any process follows a run produced on another.
 */
export function createRedisStorage(options: RedisStorageOptions): AgentStorage {
  const { connections } = options;
  const prefix = options.keyPrefix ?? 'agent-chat:';
  const onError = options.onError ?? ((error: unknown) => console.error('[agent-chat] redis', error));
  const run = (script: RedisScript, args: readonly (string | number)[]): Promise<unknown> =>
    runRedisScript(connections.send, script, prefix, args);
  const streamKey = (runId: string): string => `${prefix}events:${runId}`;
  const tails = createRedisTails({
    send: connections.send,
    openConnection: connections.openConnection,
    streamKey,
    groupSize: options.tailGroupSize ?? 16,
    onError,
  });
  const idempotencyArgs = (completion: IdempotencyCompletion | undefined): string[] =>
    completion === undefined
      ? ['', '', '', '']
      : [completion.recordId, completion.token, JSON.stringify(completion.response), String(completion.expiresAt)];

  const readEvents: AgentStorage['readEvents'] = async (runId, afterSeq, limit) => {
    const count = limit === undefined || !Number.isFinite(limit) ? [] : ['COUNT', String(limit)];
    const reply = await connections.send(['XRANGE', streamKey(runId), `${afterSeq + 1}-0`, '+', ...count]);
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
      const reply = await run(CREATE_RUN, [
        session.kind,
        sessionId,
        created.subjectId,
        started.data.agent.versionId,
        created.runId,
        created.userMessageId,
        created.createdAt,
        JSON.stringify(created.start),
        JSON.stringify(started),
        command.title === null ? '0' : '1',
        command.title ?? '',
        command.lease.owner,
        command.lease.expiresAt,
        ...idempotencyArgs(command.idempotency),
        fresh?.subjectId ?? '',
        fresh?.createdAt ?? '',
        fresh?.title == null ? '0' : '1',
        fresh?.title ?? '',
        command.replacesRunId ?? '',
      ]);
      const [kind, detail] = Array.isArray(reply) ? (reply as unknown[]) : [];
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
      const reply = await run(GET_RUN, [runId]);
      if (!Array.isArray(reply)) return null;
      const [fields, messages] = reply as [unknown, unknown];
      return toRun(runId, toFields(fields), toStrings(messages));
    },
    async getSession(sessionId) {
      return toSession(sessionId, toFields(await connections.send(['HGETALL', `${prefix}session:${sessionId}`])));
    },
    async listSessions(subjectId, page) {
      const cursor = page.after === undefined ? undefined : decodeSessionCursor(page.after);
      if (cursor === null) return null;
      const reply = await run(LIST_SESSIONS, [subjectId, cursor?.updatedAt ?? '', cursor?.tieBreak ?? '', page.limit]);
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
      return Number(await run(COUNT_SESSION_MESSAGES, [sessionId]));
    },
    async updateSessionTitle(request) {
      const reply = await run(UPDATE_SESSION_TITLE, [
        request.sessionId,
        request.subjectId,
        request.title,
        request.expectedTitle === undefined ? '0' : '1',
        request.expectedTitle === null ? '1' : '0',
        request.expectedTitle ?? '',
      ]);
      const [kind, fields] = Array.isArray(reply) ? (reply as unknown[]) : [];
      if (kind === 'updated') return { kind, session: toSession(request.sessionId, toFields(fields)) as StoredSession };
      return { kind: kind === 'title_changed' ? 'title_changed' : 'not_found' };
    },
    async deleteSession(request) {
      const [kind, detail] = (await run(DELETE_SESSION, [request.sessionId, request.subjectId])) as [unknown, unknown];
      if (kind === 'run_active') return { kind, activeRunId: String(detail) };
      if (kind === 'deleted') return { kind, runIds: toStrings(detail) };
      return { kind: 'not_found' };
    },
    async listSessionRunIds(sessionId) {
      return toStrings(await connections.send(['ZRANGE', `${prefix}session-runs:${sessionId}`, '0', '-1']));
    },
    async listMessages(sessionId, page) {
      const limit = page.limit ?? -1;
      const reply = await run(LIST_MESSAGES, [sessionId, page.before ?? '', limit]);
      if (!Array.isArray(reply)) return null;
      const messages = toStrings(reply).map((json) => JSON.parse(json) as SnapshotMessage);
      return toPage(messages, limit < 0 ? messages.length : limit, (m) => m.messageId);
    },
    async listSettledToolCalls(sessionId) {
      const pairs = toStrings(await run(LIST_FINAL_SNAPSHOTS, [sessionId]));
      const calls: SettledToolCall[] = [];
      for (let index = 0; index + 1 < pairs.length; index += 2) {
        const snapshot = JSON.parse(pairs[index + 1] ?? '{}') as Partial<RunSnapshot>;
        for (const call of snapshot.toolCalls ?? []) calls.push({ ...call, runId: pairs[index] ?? '' });
      }
      return calls;
    },
    async appendEvents(runId, expectedLastSeq, events, options = {}) {
      const isEnding = checkAppendBatch(runId, expectedLastSeq, events, options);
      const last = events[events.length - 1];
      const snapshot = isEnding ? options.finalSnapshot : undefined;
      const messages = snapshot?.messages ?? [];
      const reply = toStrings(
        await run(APPEND_EVENTS, [
          runId,
          expectedLastSeq,
          events.length,
          ...events.map((event) => JSON.stringify(event)),
          isEnding ? '1' : '0',
          last?.timestamp ?? '',
          snapshot === undefined ? '' : JSON.stringify(withoutMessages(snapshot)),
          JSON.stringify(messages.map((message) => message.messageId)),
          messages.length,
          ...messages.flatMap((message) => [message.messageId, JSON.stringify(message)]),
          ...idempotencyArgs(options.idempotency),
        ]),
      );
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
      return Number(await run(COMPACT_ENDED_RUNS, [endedBefore, limit]));
    },
    async enforceRetention(request) {
      const reply = await run(ENFORCE_RETENTION, [
        request.now - request.sessionIdleTtlMs,
        request.maxSessionsPerSubject,
        request.maxRunsPerSession,
        request.maxSessions,
        request.maxRuns,
        request.touched?.sessionId ?? '',
        request.touched?.subjectId ?? '',
      ]);
      const [sessionIds, runIds] = Array.isArray(reply) ? (reply as [unknown, unknown]) : [[], []];
      return { sessionIds: toStrings(sessionIds), runIds: toStrings(runIds) };
    },
    async beginIdempotency(request) {
      const [kind, response] = toStrings(
        await run(BEGIN_IDEMPOTENCY, [
          request.recordId,
          request.fingerprint,
          request.token,
          request.now,
          request.lockedUntil,
          request.expiresAt,
        ]),
      );
      if (kind === 'replay') return { kind, response: JSON.parse(response ?? 'null') };
      return { kind: kind === 'started' || kind === 'reused' ? kind : 'in_use' };
    },
    async completeIdempotency(completion) {
      const [recordId, token, response, expiresAt] = idempotencyArgs(completion);
      return (await run(COMPLETE_IDEMPOTENCY, [recordId ?? '', token ?? '', response ?? '', expiresAt ?? ''])) === 1;
    },
    async abandonIdempotency(recordId, token) {
      await run(ABANDON_IDEMPOTENCY, [recordId, token]);
    },
    async deleteExpiredIdempotency(now) {
      return Number(await run(DELETE_EXPIRED_IDEMPOTENCY, [now]));
    },
    async renewLease(runId, owner, expiresAt) {
      return (await run(RENEW_LEASE, [runId, owner, expiresAt])) === 1;
    },
    async takeExpiredLease(runId, owner, now, expiresAt) {
      return (await run(TAKE_EXPIRED_LEASE, [runId, owner, now, expiresAt])) === 1;
    },
    async listExpiredLeases(now, limit) {
      const flat = toStrings(await run(LIST_EXPIRED_LEASES, [now, limit]));
      const leases = [];
      for (let index = 0; index + 2 < flat.length; index += 3) {
        leases.push({
          runId: flat[index] as string,
          owner: flat[index + 1] as string,
          expiresAt: Number(flat[index + 2]),
        });
      }
      return leases;
    },
    async countActiveRuns(subjectId) {
      return Number(await connections.send(['SCARD', `${prefix}subject-active:${subjectId}`]));
    },
    async takeRate(request) {
      const retryAfterMs = Number(await run(TAKE_RATE, [request.bucket, request.perMinute, request.now]));
      return retryAfterMs === 0 ? { isAllowed: true } : { isAllowed: false, retryAfterMs };
    },
    async bindAgUiThread({ subjectId, threadId, sessionId }) {
      await run(BIND_AG_UI_THREAD, [agUiThreadField(subjectId, threadId), sessionId]);
    },
    async findAgUiThread(subjectId, threadId) {
      const sessionId = await connections.send([
        'HGET',
        `${prefix}ag-ui-threads`,
        agUiThreadField(subjectId, threadId),
      ]);
      return typeof sessionId === 'string' ? sessionId : null;
    },
    async setAgUiSegment(runId, agUiRunId) {
      await run(SET_AG_UI_SEGMENT, [runId, agUiRunId]);
    },
    async getAgUiSegment(runId) {
      const agUiRunId = await connections.send(['HGET', `${prefix}run:${runId}`, 'agUiRunId']);
      return typeof agUiRunId === 'string' ? agUiRunId : null;
    },
    async putFeedback(feedback) {
      const field = JSON.stringify([feedback.subjectId, feedback.messageId]);
      return (await run(PUT_FEEDBACK, [feedback.runId, field, JSON.stringify(feedback)])) === 1;
    },
    async listFeedback(runId, subjectId) {
      const fields = toFields(await connections.send(['HGETALL', `${prefix}feedback:${runId}`]));
      const votes = Object.values(fields).map((json) => JSON.parse(json) as StoredFeedback);
      return votes
        .filter((vote) => vote.subjectId === subjectId)
        .sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
    },
    async counts() {
      const [sessions, runs] = toStrings(await run(COUNTS, []));
      return { sessions: Number(sessions), runs: Number(runs) };
    },
    async getOrCreateSetting(name, proposed) {
      return String(await run(GET_OR_CREATE_SETTING, [name, proposed]));
    },
    async checkReady() {
      if ((await connections.send(['PING'])) !== 'PONG') throw new Error('Redis did not answer PING with PONG.');
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
