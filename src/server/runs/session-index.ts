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
