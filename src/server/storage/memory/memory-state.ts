import type { EventEnvelope, SnapshotMessage } from '../../../core/protocol.ts';
import { createDoorbells } from '../doorbells.ts';
import type { Doorbells } from '../doorbells.ts';
import type { RunLease, StoredFeedback, StoredResponse, StoredRun, StoredSession } from '../storage-port.ts';

/** A run with its log. */
export interface MemoryRun {
  run: StoredRun;
  events: EventEnvelope[];
}

/** A settled message with the run that settled it. */
export interface SettledMessage {
  runId: string;
  message: SnapshotMessage;
}

/** An idempotency record: held by a request's token, or completed with its response. */
export type MemoryIdempotencyRecord =
  | { state: 'in_progress'; fingerprint: string; token: string; lockedUntil: number; expiresAt: number }
  | { state: 'completed'; fingerprint: string; response: StoredResponse; expiresAt: number };

/** Everything one in-memory store holds: its roles (`memory-*.ts`) share it. */
export interface MemoryState {
  sessions: Map<string, StoredSession>;
  sessionRunIds: Map<string, string[]>;
  /** Every settled message of each session, in settle order, whether in its history or not. */
  sessionMessages: Map<string, SettledMessage[]>;
  /** The runs of each session whose messages are out of its history (another branch is shown). */
  runsOutOfHistory: Map<string, Set<string>>;
  runs: Map<string, MemoryRun>;
  idempotency: Map<string, MemoryIdempotencyRecord>;
  leases: Map<string, RunLease>;
  settings: Map<string, string>;
  /** AG-UI thread bindings by subject and thread, and each session's bound thread keys. */
  agUiThreads: Map<string, string>;
  agUiThreadsOfSession: Map<string, Set<string>>;
  agUiSegments: Map<string, string>;
  /** Per run: each person's vote per message, by `JSON.stringify([subjectId, messageId])`. */
  feedbackOfRun: Map<string, Map<string, StoredFeedback>>;
  /** Each session's creation number (1, 2, …): the order of equal activity times in listings. */
  creationNumbers: Map<string, number>;
  sessionsCreated: number;
  doorbells: Doorbells;
}

/** Creates the empty state of one in-memory store. */
export function createMemoryState(): MemoryState {
  return {
    sessions: new Map(),
    sessionRunIds: new Map(),
    sessionMessages: new Map(),
    runsOutOfHistory: new Map(),
    runs: new Map(),
    idempotency: new Map(),
    leases: new Map(),
    settings: new Map(),
    agUiThreads: new Map(),
    agUiThreadsOfSession: new Map(),
    agUiSegments: new Map(),
    feedbackOfRun: new Map(),
    creationNumbers: new Map(),
    sessionsCreated: 0,
    doorbells: createDoorbells(),
  };
}

/** The session's history (the branch shown): its settled messages, oldest first, but those of runs out of it. */
export function historyOf(state: MemoryState, sessionId: string): SnapshotMessage[] {
  const { sessionMessages, runsOutOfHistory } = state;
  const out = runsOutOfHistory.get(sessionId);
  return (sessionMessages.get(sessionId) ?? [])
    .filter((settled) => out?.has(settled.runId) !== true)
    .map((settled) => settled.message);
}

/** Takes the messages of the session's ended runs `runIds` out of its history, or brings them back. */
export function moveHistory(
  state: MemoryState,
  move: { sessionId: string; runIds: readonly string[]; isInHistory: boolean },
): void {
  const { runs, runsOutOfHistory } = state;
  const { sessionId, runIds, isInHistory } = move;
  const out = runsOutOfHistory.get(sessionId) ?? new Set<string>();
  for (const runId of runIds) {
    const run = runs.get(runId)?.run;
    if (run?.sessionId !== sessionId || run.endedAt === null) continue;
    if (isInHistory) out.delete(runId);
    else out.add(runId);
  }
  if (out.size > 0) runsOutOfHistory.set(sessionId, out);
  else runsOutOfHistory.delete(sessionId);
}

/** Deletes the run with its log, lease, AG-UI segment, feedback and settled messages. */
export function deleteRun(state: MemoryState, runId: string): void {
  const { runs, leases, agUiSegments, feedbackOfRun, sessionRunIds, sessionMessages, runsOutOfHistory } = state;
  const stored = runs.get(runId);
  if (stored === undefined) return;
  runs.delete(runId);
  leases.delete(runId);
  agUiSegments.delete(runId);
  feedbackOfRun.delete(runId);
  const { sessionId } = stored.run;
  sessionRunIds.set(
    sessionId,
    (sessionRunIds.get(sessionId) ?? []).filter((id) => id !== runId),
  );
  sessionMessages.set(
    sessionId,
    (sessionMessages.get(sessionId) ?? []).filter((settled) => settled.runId !== runId),
  );
  runsOutOfHistory.get(sessionId)?.delete(runId);
}

/** Deletes the session with all its runs and AG-UI thread bindings. */
export function removeSession(state: MemoryState, sessionId: string): void {
  const {
    sessions,
    agUiThreads,
    agUiThreadsOfSession,
    creationNumbers,
    sessionRunIds,
    sessionMessages,
    runsOutOfHistory,
  } = state;
  for (const runId of sessionRunIds.get(sessionId) ?? []) deleteRun(state, runId);
  sessions.delete(sessionId);
  for (const key of agUiThreadsOfSession.get(sessionId) ?? []) agUiThreads.delete(key);
  agUiThreadsOfSession.delete(sessionId);
  creationNumbers.delete(sessionId);
  sessionRunIds.delete(sessionId);
  sessionMessages.delete(sessionId);
  runsOutOfHistory.delete(sessionId);
}
