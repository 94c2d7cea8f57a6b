/**
 * What {@link RetentionStorage.enforceRetention} keeps (docs/protocol.md §16.3, docs/server.md
 * "Retention"). Only sessions without an active run are ever deleted, each with all its runs,
 * least recently active first (equal times in creation order). Past `maxSessions` (`maxRuns`) only
 * sessions idle for `protectActiveSessionsMs` go, so one identity's creations never evict another
 * identity's recently active sessions: the store stays over its cap until one is idle that long,
 * and {@link RetentionStorage.checkSessionRoom} refuses new sessions meanwhile.
 */
export interface RetentionRequest {
  now: number;
  /** Without `touched` (a sweep): sessions idle this long are deleted. */
  sessionIdleTtlMs: number;
  /** Past it the touched subject's own least recently active sessions are deleted, however recent. */
  maxSessionsPerSubject: number;
  /** Past it the touched session's oldest runs are deleted (their messages leave its history). */
  maxRunsPerSession: number;
  maxSessions: number;
  maxRuns: number;
  /** The store caps delete only sessions with no run started or ended for this long. */
  protectActiveSessionsMs: number;
  /** After a create: the session that got the run (never deleted) and its subject, whose caps apply. */
  touched?: { sessionId: string; subjectId: string };
}

/** What {@link RetentionStorage.checkSessionRoom} asks: the store caps of {@link RetentionRequest}. */
export type SessionRoomRequest = Pick<RetentionRequest, 'now' | 'maxSessions' | 'maxRuns' | 'protectActiveSessionsMs'>;

/** Whether a new session fits under the store caps; `full` names the cap that is reached. */
export type SessionRoom = { kind: 'room' } | { kind: 'full'; limit: 'maxSessions' | 'maxRuns' };

/** The room a store holding `counts` has without deleting anything: below both caps, or the cap reached. */
export function roomUnderCaps(request: SessionRoomRequest, counts: { sessions: number; runs: number }): SessionRoom {
  if (counts.sessions >= request.maxSessions) return { kind: 'full', limit: 'maxSessions' };
  if (counts.runs >= request.maxRuns) return { kind: 'full', limit: 'maxRuns' };
  return { kind: 'room' };
}

/** Retention and capacity: what the store keeps, whether a new session fits, and how much it holds. */
export interface RetentionStorage {
  /** Deletes what the caps and the idle TTL do not keep; returns what went. */
  enforceRetention(request: RetentionRequest): Promise<{ sessionIds: string[]; runIds: string[] }>;
  /**
   * Whether a new session fits: `room` while the store holds fewer than `maxSessions` sessions and
   * `maxRuns` runs, or while the store caps may delete a session (no active run, idle for
   * `protectActiveSessionsMs`); else `full` with the cap reached (`maxSessions` first). Asked
   * before a create writes anything; creates racing past it overshoot the caps until sessions idle.
   */
  checkSessionRoom(request: SessionRoomRequest): Promise<SessionRoom>;
  /** How many sessions and runs are kept (for operators, tests and benchmarks). */
  counts(): Promise<{ sessions: number; runs: number }>;
}
