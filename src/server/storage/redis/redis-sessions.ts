import type { RunSnapshot, SnapshotMessage } from '../../../core/protocol.ts';
import { toFields, toPage, toSession, toStrings, toTurnLink } from '../redis-replies.ts';
import {
  COUNT_SESSION_MESSAGES,
  LIST_FINAL_SNAPSHOTS,
  LIST_MESSAGES,
  LIST_SESSIONS,
  LIST_TURN_LINKS,
  UPDATE_SESSION_TITLE,
} from '../redis-record-scripts.ts';
import { DELETE_SESSION } from '../redis-retention-script.ts';
import { SHOW_BRANCH } from '../redis-run-scripts.ts';
import { decodeSessionCursor, encodeSessionCursor } from '../session-cursor.ts';
import type { SessionStorage, SettledToolCall, StoredSession } from '../storage-port.ts';
import type { RedisContext } from './redis-context.ts';

/**
 * The sessions and history role of the Redis store: a session lives in its subject's shard, and a
 * method given only its id finds that shard through the directory.
 */
export function createRedisSessionStorage({ layout, run, send, directory }: RedisContext): SessionStorage {
  return {
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
  };
}
