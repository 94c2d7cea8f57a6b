import { fail } from '../http/problem-error.ts';

/** A conversation: pinned to one agent version, at most one active run. */
export interface SessionRecord {
  sessionId: string;
  subjectId: string;
  agentVersionId: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  runIds: string[];
  activeRunId: string | null;
  lastRunId: string | null;
}

/**
 * The sessions of one store, indexed twice: per subject in creation order (for listing) and all
 * together in order of last activity (for eviction, least recently active first).
 */
export interface SessionIndex {
  add(session: SessionRecord): void;
  get(sessionId: string): SessionRecord | undefined;
  /** Moves the session to the most recently active end; call it whenever `updatedAt` changes. */
  touch(session: SessionRecord): void;
  remove(session: SessionRecord): void;
  /** The subject's sessions, oldest created first. */
  ofSubject(subjectId: string): SessionRecord[];
  size(): number;
  /** Every session, least recently active first. */
  byActivity(): IterableIterator<SessionRecord>;
}

/** Creates an empty {@link SessionIndex}. */
export function createSessionIndex(): SessionIndex {
  const byActivity = new Map<string, SessionRecord>();
  const bySubject = new Map<string, Map<string, SessionRecord>>();
  return {
    add(session) {
      byActivity.set(session.sessionId, session);
      let own = bySubject.get(session.subjectId);
      if (own === undefined) {
        own = new Map();
        bySubject.set(session.subjectId, own);
      }
      own.set(session.sessionId, session);
    },
    get: (sessionId) => byActivity.get(sessionId),
    touch(session) {
      if (!byActivity.delete(session.sessionId)) return;
      byActivity.set(session.sessionId, session);
    },
    remove(session) {
      byActivity.delete(session.sessionId);
      const own = bySubject.get(session.subjectId);
      own?.delete(session.sessionId);
      if (own?.size === 0) bySubject.delete(session.subjectId);
    },
    ofSubject: (subjectId) => [...(bySubject.get(subjectId)?.values() ?? [])],
    size: () => byActivity.size,
    byActivity: () => byActivity.values(),
  };
}

const TITLE_CHARS = 80;

/** Makes a session's title from its first message: one line of at most 80 characters, or null. */
export function makeSessionTitle(text: string): string | null {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return null;
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

/**
 * Returns the session a new run goes into: a new one (not yet added to the index) when `sessionId`
 * is absent, else the subject's session, refused with `404 NOT_FOUND` (also another subject's),
 * `409 AGENT_VERSION_MISMATCH` or `409 RUN_ALREADY_ACTIVE` (`activeRunId` in the body and details).
 */
export function openSessionForRun(
  sessions: SessionIndex,
  request: {
    sessionId: string | undefined;
    subjectId: string;
    agentVersionId: string;
    newSessionId: () => string;
    now: number;
  },
): { session: SessionRecord; isNewSession: boolean } {
  const { sessionId, subjectId, agentVersionId, now } = request;
  if (sessionId === undefined) {
    const session: SessionRecord = {
      sessionId: request.newSessionId(),
      subjectId,
      agentVersionId,
      title: null,
      createdAt: now,
      updatedAt: now,
      runIds: [],
      activeRunId: null,
      lastRunId: null,
    };
    return { session, isNewSession: true };
  }
  const session = sessions.get(sessionId);
  if (session === undefined || session.subjectId !== subjectId) {
    return fail({ code: 'NOT_FOUND', detail: 'No such session.' });
  }
  if (session.agentVersionId !== agentVersionId) {
    return fail({
      code: 'AGENT_VERSION_MISMATCH',
      detail: 'The session is pinned to another agent version.',
      details: { agentVersionId: session.agentVersionId },
    });
  }
  const { activeRunId } = session;
  if (activeRunId !== null) {
    return fail({
      code: 'RUN_ALREADY_ACTIVE',
      detail: 'Attach to the active run or add an input to it.',
      details: { activeRunId },
      extra: { activeRunId },
    });
  }
  return { session, isNewSession: false };
}
