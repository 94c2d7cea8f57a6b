import { decodeSessionCursor, encodeSessionCursor } from '../session-cursor.ts';
import type { SessionCursor } from '../session-cursor.ts';
import type { Page, SessionStorage } from '../storage-port.ts';
import { historyOf, moveHistory, removeSession } from './memory-state.ts';
import type { MemoryState } from './memory-state.ts';

/** The sessions and history role of the in-memory store. */
export function createMemorySessionStorage(state: MemoryState): SessionStorage {
  const { sessions, sessionRunIds, runs, creationNumbers } = state;
  return {
    async getSession(sessionId) {
      const session = sessions.get(sessionId);
      return session === undefined ? null : { ...session };
    },
    async listSessions(subjectId, page) {
      const cursor = page.after === undefined ? undefined : decodeSessionCursor(page.after);
      if (cursor === null) return null;
      // Equal times: latest created first; the cursor's tie-break is the creation number, zero-padded.
      const keyed = [...sessions.values()]
        .filter((session) => session.subjectId === subjectId)
        .map((session) => ({
          session,
          key: { updatedAt: session.updatedAt, tieBreak: padNumber(creationNumbers.get(session.sessionId) ?? 0) },
        }))
        .sort((a, b) => compareCursors(b.key, a.key));
      const rest = cursor === undefined ? keyed : keyed.filter(({ key }) => compareCursors(key, cursor) < 0);
      const page1 = rest.slice(0, page.limit);
      const last = page1[page1.length - 1];
      return {
        items: page1.map(({ session }) => ({ ...session })),
        next: rest.length > page.limit && last !== undefined ? encodeSessionCursor(last.key) : null,
      };
    },
    async countSessionMessages(sessionId) {
      return historyOf(state, sessionId).filter((m) => m.role !== 'reasoning').length;
    },
    async updateSessionTitle(request) {
      const session = sessions.get(request.sessionId);
      if (session === undefined || session.subjectId !== request.subjectId) return { kind: 'not_found' };
      if (request.expectedTitle !== undefined && session.title !== request.expectedTitle) {
        return { kind: 'title_changed' };
      }
      const updated = { ...session, title: request.title };
      sessions.set(request.sessionId, updated);
      return { kind: 'updated', session: { ...updated } };
    },
    async deleteSession(request) {
      const session = sessions.get(request.sessionId);
      if (session === undefined || session.subjectId !== request.subjectId) return { kind: 'not_found' };
      if (session.activeRunId !== null) return { kind: 'run_active', activeRunId: session.activeRunId };
      const runIds = [...(sessionRunIds.get(request.sessionId) ?? [])];
      removeSession(state, request.sessionId);
      return { kind: 'deleted', runIds };
    },
    async showBranch(request) {
      const session = sessions.get(request.sessionId);
      if (session === undefined || session.subjectId !== request.subjectId) return { kind: 'not_found' };
      if (session.activeRunId !== null) return { kind: 'run_active', activeRunId: session.activeRunId };
      moveHistory(state, { sessionId: request.sessionId, runIds: request.leave, isInHistory: false });
      moveHistory(state, { sessionId: request.sessionId, runIds: request.enter, isInHistory: true });
      return { kind: 'shown', session: { ...session } };
    },
    async listSessionRunIds(sessionId) {
      return [...(sessionRunIds.get(sessionId) ?? [])];
    },
    async listTurnLinks(sessionId) {
      return (sessionRunIds.get(sessionId) ?? []).flatMap((runId) => {
        const run = runs.get(runId)?.run;
        if (run === undefined) return [];
        const { parentMessageId, replacesRunId } = run.start;
        return [
          {
            runId,
            userMessageId: run.userMessageId,
            parentMessageId,
            ...(replacesRunId === undefined ? {} : { replacesRunId }),
            lastMessageId: run.finalSnapshot?.messages.at(-1)?.messageId ?? null,
          },
        ];
      });
    },
    async listMessages(sessionId, page) {
      const newestFirst = historyOf(state, sessionId).reverse();
      return pageOf(newestFirst, (m) => m.messageId, page.before, page.limit);
    },
    async listSettledToolCalls(sessionId) {
      return (sessionRunIds.get(sessionId) ?? []).flatMap((runId) => {
        const snapshot = runs.get(runId)?.run.finalSnapshot;
        return (snapshot?.toolCalls ?? []).map((call) => ({ ...call, runId }));
      });
    },
  };
}

function pageOf<T>(
  newestFirst: readonly T[],
  idOf: (item: T) => string,
  cursor: string | undefined,
  limit = Number.POSITIVE_INFINITY,
): Page<T> | null {
  let start = 0;
  if (cursor !== undefined) {
    const index = newestFirst.findIndex((item) => idOf(item) === cursor);
    if (index < 0) return null;
    start = index + 1;
  }
  const items = newestFirst.slice(start, start + limit);
  const hasMore = start + limit < newestFirst.length;
  const last = items[items.length - 1];
  return { items, next: hasMore && last !== undefined ? idOf(last) : null };
}

function padNumber(value: number): string {
  return String(value).padStart(12, '0');
}

/** Orders two cursors by activity time, then by tie-break (zero-padded, so text order is number order). */
function compareCursors(a: SessionCursor, b: SessionCursor): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt - b.updatedAt;
  if (a.tieBreak === b.tieBreak) return 0;
  return a.tieBreak < b.tieBreak ? -1 : 1;
}
