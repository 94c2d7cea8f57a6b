import type { Clock } from '../../core/clock.ts';
import type { EventLog } from './event-log.ts';
import type { SessionIndex, SessionRecord } from './session-index.ts';

/**
 * How long the in-memory store keeps what (docs/server.md, "Memory"). Only sessions without an
 * active run are ever evicted, least recently active first, and a session goes with all its runs.
 */
export interface RetentionPolicy {
  /** A finished run's events are trimmed this long after its terminal event (its snapshot stays). */
  eventRetentionMs: number;
  /** A session with no run started or ended for this long is evicted. */
  sessionIdleTtlMs: number;
  /** Sessions per subject; a new one past it evicts that subject's least recently active ones. */
  maxSessionsPerSubject: number;
  /** Runs per session; past it the session's oldest runs are evicted (their messages leave its history). */
  maxRunsPerSession: number;
  /** Sessions in the whole store; past it the least recently active ones of anyone are evicted. */
  maxSessions: number;
  /** Runs in the whole store; past it whole sessions are evicted as for `maxSessions`. */
  maxRuns: number;
}

/** What retention reads of a run. */
export interface RetainedRun {
  terminalAt: number | null;
  isTrimmed: boolean;
  record: { runId: string; snapshot(): { lastSeq: number } };
}

/** Options of {@link createRunRetention}. */
export interface RunRetentionOptions {
  policy: RetentionPolicy;
  sessions: SessionIndex;
  runs: Map<string, RetainedRun>;
  eventLog: EventLog;
  clock: Pick<Clock, 'now'>;
  /** Where a failed log removal is reported. */
  onError: (error: unknown, context: { runId: string }) => void;
}

/** Applies a {@link RetentionPolicy} to a store's sessions, runs and event log. */
export interface RunRetention {
  /** Applies the caps right after `session` got a new run; `session` itself is never evicted by it. */
  afterRunCreated(session: SessionRecord): void;
  /** Trims the logs of runs that ended longer than the retention ago, then evicts idle sessions. */
  sweep(): Promise<void>;
}

/** Creates the retention of one store. */
export function createRunRetention(options: RunRetentionOptions): RunRetention {
  const { policy, sessions, runs, eventLog, clock, onError } = options;

  const evictRun = (runId: string): void => {
    runs.delete(runId);
    eventLog.remove(runId).catch((error: unknown) => onError(error, { runId }));
  };

  const evictSession = (session: SessionRecord): void => {
    for (const runId of session.runIds) evictRun(runId);
    session.runIds = [];
    sessions.remove(session);
  };

  const isEvictable = (session: SessionRecord, keep: SessionRecord | null): boolean =>
    session !== keep && session.activeRunId === null;

  return {
    afterRunCreated(session) {
      while (session.runIds.length > Math.max(1, policy.maxRunsPerSession)) {
        evictRun(session.runIds.shift() as string);
      }
      const own = sessions.ofSubject(session.subjectId);
      const excess = own.length - policy.maxSessionsPerSubject;
      if (excess > 0) {
        own
          .filter((candidate) => isEvictable(candidate, session))
          .sort((a, b) => a.updatedAt - b.updatedAt)
          .slice(0, excess)
          .forEach(evictSession);
      }
      for (const candidate of sessions.byActivity()) {
        if (sessions.size() <= policy.maxSessions && runs.size <= policy.maxRuns) break;
        if (isEvictable(candidate, session)) evictSession(candidate);
      }
    },
    async sweep() {
      const now = clock.now();
      for (const entry of runs.values()) {
        if (entry.terminalAt === null || entry.isTrimmed || now - entry.terminalAt < policy.eventRetentionMs) continue;
        entry.isTrimmed = true;
        await eventLog.trim(entry.record.runId, entry.record.snapshot().lastSeq);
      }
      for (const candidate of sessions.byActivity()) {
        if (now - candidate.updatedAt < policy.sessionIdleTtlMs) break;
        if (isEvictable(candidate, null)) evictSession(candidate);
      }
    },
  };
}
