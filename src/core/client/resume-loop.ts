import type { EventEnvelope, RunResource } from '../protocol.ts';
import { isTerminalEvent, isTerminalRunStatus } from '../protocol.ts';
import { createSseParser } from '../sse/parse-sse-stream.ts';
import type { SseFrame } from '../sse/parse-sse-stream.ts';
import { agentFailure, isAgentError } from '../transport/agent-error.ts';
import type { AgentError } from '../transport/agent-error.ts';
import { computeBackoffDelay } from '../transport/backoff.ts';
import { sleep } from '../clock.ts';
import type { Clock } from '../clock.ts';
import type { HttpTransport } from '../transport/http-transport.ts';
import { isRetryableError } from '../transport/http-transport.ts';
import { linkSignals } from '../transport/link-signals.ts';
import { createClientError } from './client-errors.ts';

/** Where the loop starts reading: the last applied `seq` and its cursor (`0`/`"0"` before any). */
export interface ResumePosition {
  lastSeq: number;
  cursor: string;
}

/** The connection phases the loop reports (the client maps them onto its status). */
export type ResumeLoopPhase = 'connecting' | 'streaming' | 'reconnecting';

/** Options of {@link runResumeLoop}. */
export interface ResumeLoopOptions {
  transport: Pick<HttpTransport, 'request' | 'openStream'>;
  runId: string;
  start: ResumePosition;
  /** Called once per new event, in `seq` order, never twice for one `seq`. */
  onEvent: (event: EventEnvelope) => void;
  /** Called after a gap or `410` with the snapshot the run's state must be reset to. */
  onSnapshot: (snapshot: RunResource) => void;
  onPhase: (phase: ResumeLoopPhase) => void;
  /** No bytes (events or comments) for this long → abort and reconnect. */
  idleTimeoutMs: number;
  /** Without progress for this long the loop gives up with `STREAM_STALLED` (default 10 minutes). */
  stallTimeoutMs?: number;
  clock: Clock;
  random: () => number;
  backoff?: { baseMs?: number; capMs?: number };
  /** Aborting ends the loop; it then rejects with an `ABORTED` AgentError. */
  signal: AbortSignal;
}

/** Default reconnect budget: past it the user is asked instead of retrying silently (docs/protocol.md §9). */
export const DEFAULT_STALL_TIMEOUT_MS = 10 * 60_000;

/** How one stream attempt ended: the run is over, its state needs a resync, a clean close, or a retryable failure. */
type AttemptOutcome = 'terminal' | 'resync' | 'closed' | AgentError;

/**
 * Follows one run's event log until its terminal event (docs/protocol.md §9): reads
 * `GET /runs/{id}/events` from the last cursor, drops `seq <= lastSeq`, heals a gap or a `410`
 * from `GET /runs/{id}`, reconnects at once after a clean close (then with backoff if that repeats
 * without progress), aborts a stream silent past `idleTimeoutMs`, and backs off (full jitter,
 * honouring `Retry-After`) after network errors and 5xx. Resolves when the run is terminal;
 * rejects with the `AgentError` for 401/403/404/`IDENTITY_CHANGED` and other definitive answers
 * (never loops on them), with `STREAM_STALLED` past the reconnect budget, or with `ABORTED`.
 */
export async function runResumeLoop(options: ResumeLoopOptions): Promise<void> {
  const { clock, signal } = options;
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const position: ResumePosition = { ...options.start };
  let failures = 0;
  let lastProgressAt = clock.now();
  let phase: ResumeLoopPhase = 'connecting';
  while (true) {
    throwIfAborted(signal);
    options.onPhase(phase);
    const seqBefore = position.lastSeq;
    const outcome = await readOnce(options, position);
    if (outcome === 'terminal') return;
    if (position.lastSeq > seqBefore) {
      failures = 0;
      lastProgressAt = clock.now();
    }
    phase = 'reconnecting';
    if (outcome === 'resync') {
      if (await resync(options, position)) return;
      continue;
    }
    if (clock.now() - lastProgressAt > stallTimeoutMs) {
      throw createClientError('STREAM_STALLED', { retryable: true, runId: options.runId });
    }
    // A clean close (drain, max duration, watchdog) reconnects at once the first time.
    const isClosed = outcome === 'closed';
    const backoffAttempt = isClosed ? failures - 1 : failures;
    failures += 1;
    if (backoffAttempt < 0) continue;
    const retryAfterMs = isClosed ? 0 : (outcome.retryAfterMs ?? 0);
    const delayMs = Math.max(
      computeBackoffDelay(backoffAttempt, { ...options.backoff, random: options.random }),
      retryAfterMs,
    );
    await sleep(delayMs, { signal, clock }).catch(() => throwIfAborted(signal));
  }
}

async function readOnce(options: ResumeLoopOptions, position: ResumePosition): Promise<AttemptOutcome> {
  const { runId, transport, clock } = options;
  const attempt = new AbortController();
  const linked = linkSignals([options.signal, attempt.signal]);
  let isIdle = false;
  let watchdog: unknown;
  const armWatchdog = (): void => {
    if (watchdog !== undefined) clock.clearTimeout(watchdog);
    watchdog = clock.setTimeout(() => {
      isIdle = true;
      attempt.abort();
    }, options.idleTimeoutMs);
  };
  try {
    armWatchdog();
    const response = await transport.openStream({
      path: `/runs/${encodeURIComponent(runId)}/events?after=${encodeURIComponent(position.cursor)}`,
      lastEventId: position.cursor,
      signal: linked.signal,
    });
    if (response.status === 204 || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      return 'terminal';
    }
    options.onPhase('streaming');
    armWatchdog();
    const frames: SseFrame[] = [];
    const parser = createSseParser({ onFrame: (frame) => frames.push(frame) });
    const reader = response.body.getReader();
    // Aborting (caller, watchdog, or the end of this attempt) cancels the body, which closes the connection.
    linked.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    while (true) {
      const chunk = await reader.read();
      throwIfAborted(options.signal);
      if (chunk.done) return 'closed';
      armWatchdog();
      parser.push(chunk.value);
      for (const frame of frames.splice(0)) {
        throwIfAborted(options.signal);
        const event = parseEventEnvelope(frame.data);
        if (event === null) return 'resync';
        if (event.runId !== runId || event.seq <= position.lastSeq) continue;
        if (event.seq > position.lastSeq + 1) return 'resync';
        options.onEvent(event);
        position.lastSeq = event.seq;
        position.cursor = event.cursor;
        // The terminal event is the log's last entry: stop reading, whatever might follow it.
        if (isTerminalEvent(event)) return 'terminal';
      }
    }
  } catch (caught) {
    throwIfAborted(options.signal);
    if (isIdle) return 'closed';
    const error = isAgentError(caught) ? caught : agentFailure('NETWORK_ERROR', { cause: caught });
    if (isCursorProblem(error)) return 'resync';
    if (!isRetryableError(error) || isFatalStreamError(error)) throw error;
    return error;
  } finally {
    if (watchdog !== undefined) clock.clearTimeout(watchdog);
    attempt.abort();
    linked.dispose();
  }
}

/**
 * Replaces the run's state with its snapshot; true when the snapshot is already terminal. The
 * transport retries retryable failures (with backoff and `Retry-After`) until the caller aborts.
 */
async function resync(options: ResumeLoopOptions, position: ResumePosition): Promise<boolean> {
  const response = await options.transport.request<RunResource>({
    method: 'GET',
    path: `/runs/${encodeURIComponent(options.runId)}`,
    attempts: Infinity,
    signal: options.signal,
  });
  const snapshot = response.body;
  if (snapshot === null || typeof snapshot.lastSeq !== 'number') {
    throw agentFailure('INVALID_RESPONSE', { status: response.status, requestId: response.requestId });
  }
  options.onSnapshot(snapshot);
  position.lastSeq = snapshot.lastSeq;
  position.cursor = snapshot.resumeCursor;
  return isTerminalRunStatus(snapshot.status);
}

/** Parses one SSE `data` payload into an event envelope, or null when it is not one. */
export function parseEventEnvelope(data: string): EventEnvelope | null {
  try {
    const event = JSON.parse(data) as Partial<EventEnvelope> | null;
    const isValid =
      typeof event?.seq === 'number' &&
      Number.isInteger(event.seq) &&
      event.seq >= 1 &&
      typeof event.cursor === 'string' &&
      typeof event.type === 'string' &&
      typeof event.runId === 'string' &&
      typeof event.data === 'object' &&
      event.data !== null;
    return isValid ? (event as EventEnvelope) : null;
  } catch {
    return null;
  }
}

function isCursorProblem(error: AgentError): boolean {
  return error.status === 410 || error.code === 'CURSOR_EXPIRED' || error.code === 'CURSOR_INVALID';
}

function isFatalStreamError(error: AgentError): boolean {
  return error.status === 401 || error.status === 403 || error.status === 404 || error.code === 'IDENTITY_CHANGED';
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) {
    throw agentFailure('ABORTED', { cause: signal.reason });
  }
}
