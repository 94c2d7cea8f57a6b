import type { EventEnvelope, StreamSettings } from '../../core/protocol.ts';
import { isTerminalEvent, RUN_LAST_SEQ_HEADER } from '../../core/protocol.ts';
import type { EventReader } from '../runs/event-log.ts';
import type { Clock } from '../../core/clock.ts';
import { STREAM_RESPONSE_HEADERS } from '../http/respond.ts';
import { createStallGuard } from './stall-guard.ts';

/** Frames are queued in pieces of about this many characters (then backpressure applies). */
const WRITE_CHUNK_CHARS = 64 * 1024;
/** What the stream queues ahead of its reader before its producer waits (bytes). */
const QUEUED_BYTES_HIGH_WATER_MARK = 64 * 1024;

/** Options of {@link streamRunEvents}. */
export interface StreamRunEventsOptions {
  /** The request's signal: the stream ends when it aborts (the client went away). */
  signal: AbortSignal;
  runId: string;
  /** Where the events are read from and whose doorbell wakes the stream. */
  eventLog: EventReader;
  /** Send events with `seq > afterSeq` (already validated against the log). */
  afterSeq: number;
  /** `X-Run-Last-Seq`: the log's last seq at connect time. */
  lastSeq: number;
  settings: StreamSettings;
  clock: Clock;
  /** Response headers to add (e.g. `X-Request-Id`). */
  headers: Record<string, string>;
  /** Events per log read (default 500). */
  pageSize?: number;
  /**
   * Frames one event and says whether the stream ends after it. Default: the protocol's frame
   * (`id:` + one `data:` line with the envelope), ending after the terminal event. The AG-UI
   * endpoint frames AG-UI events instead (docs/ag-ui.md).
   */
  frame?: (event: EventEnvelope) => { text: string; isEnd: boolean };
  /** How long the stream may stay open (default `settings.maxStreamDurationSec`). */
  maxDurationMs?: number;
  /** A reader that has taken no bytes for this long while some wait is cut (default 30 s). */
  stallTimeoutMs?: number;
  /** Told once when the client goes (its signal aborts, or the reader cancels) before the stream ended by itself. */
  onClientGone?: () => void;
  /**
   * Gets what ended the stream early by failing (a log read the storage refused, e.g. a damaged
   * page of a SQLite file): the client only sees the body end and resumes, so this is its trace.
   */
  onError: (error: unknown) => void;
}

/** A live stream: its `response`; `close` ends it cleanly (drain, shutdown); `done` settles when it is over. */
export interface RunEventStream {
  /** The `200` SSE answer whose body is the stream. */
  response: Response;
  close(): void;
  done: Promise<void>;
}

/**
 * Serves `GET /runs/{id}/events` after the cursor checks (docs/protocol.md §6, §9, §15): the SSE
 * headers, `retry:` and `: open`, every stored event after the cursor, then live events read from
 * the LOG after each doorbell (never from the producer), `: hb <epochMs>` after `heartbeatSec` of
 * silence, and the end of the body right after the terminal event or at `maxStreamDurationSec`.
 * The body is a pull-based `ReadableStream`: it queues at most 64 KiB ahead of its reader, then
 * reads no more of the log until the reader pulls, so a slow consumer only lags and nothing is
 * buffered without bound; one that has taken no bytes for `stallTimeoutMs` (see
 * `createStallGuard`) is cut (the body fails) and resumes from its cursor. It ends when `signal`
 * aborts.
 */
export function streamRunEvents(options: StreamRunEventsOptions): RunEventStream {
  const { signal, runId, eventLog, settings, clock } = options;
  const pageSize = options.pageSize ?? 500;
  const frame = options.frame ?? frameProtocolEvent;
  const encoder = new TextEncoder();
  let cursor = options.afterSeq;
  let isWoken = true;
  let isClosed = false;
  let hasEnded = false;
  let wake: (() => void) | null = null;
  /** Ends the wait of a producer parked on backpressure. */
  let releaseWrite: (() => void) | null = null;
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;

  const ring = (): void => {
    isWoken = true;
    wake?.();
  };
  const unsubscribe = eventLog.subscribe(runId, ring);
  const finish = (): void => {
    if (isClosed) return;
    isClosed = true;
    ring();
    releaseWrite?.();
  };
  const clientGone = (): void => {
    if (!hasEnded && !isClosed) options.onClientGone?.();
    finish();
  };
  const guard = createStallGuard({
    clock,
    timeoutMs: options.stallTimeoutMs ?? 30_000,
    onStall: () => {
      hasEnded = true;
      controller?.error(new Error('The client took no bytes for too long.'));
      finish();
    },
  });
  const body = new ReadableStream<Uint8Array>(
    {
      start(created) {
        controller = created;
      },
      pull() {
        guard.taken();
        releaseWrite?.();
      },
      cancel: clientGone,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUED_BYTES_HIGH_WATER_MARK }),
  );
  // The client may have gone during the route's checks: its signal has aborted already.
  if (signal.aborted) clientGone();
  else signal.addEventListener('abort', clientGone, { once: true });

  const response = new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      ...STREAM_RESPONSE_HEADERS,
      'X-Accel-Buffering': 'no',
      [RUN_LAST_SEQ_HEADER]: String(options.lastSeq),
      ...options.headers,
    },
  });

  const write = async (text: string): Promise<void> => {
    const queue = controller;
    if (isClosed || queue === null) return;
    queue.enqueue(encoder.encode(text));
    if ((queue.desiredSize ?? 0) > 0) return;
    // Backpressure: read no more of the log until the reader pulls, the stream is closed, or the
    // stall guard cuts it.
    guard.waiting();
    await new Promise<void>((resolve) => {
      releaseWrite = () => {
        releaseWrite = null;
        resolve();
      };
    });
  };

  const run = async (): Promise<void> => {
    const deadline = clock.setTimeout(finish, options.maxDurationMs ?? settings.maxStreamDurationSec * 1000);
    try {
      await write(`retry: ${settings.retryMs}\n: open\n\n`);
      while (!isClosed) {
        if (!isWoken) {
          const isRung = await waitForRing(settings.heartbeatSec * 1000);
          if (!isRung && !isClosed) await write(`: hb ${clock.now()}\n\n`);
          continue;
        }
        isWoken = false;
        const events = await eventLog.read(runId, cursor, pageSize);
        if (events.length === pageSize) isWoken = true;
        let chunk = '';
        let taken = 0;
        let isTerminal = false;
        for (const event of events) {
          // The log lost events under us (trimmed): end, so the client resumes and gets 410.
          if (isClosed || event.seq !== cursor + 1) break;
          const framed = frame(event);
          chunk += framed.text;
          cursor = event.seq;
          taken += 1;
          if (framed.isEnd) {
            isTerminal = true;
            break;
          }
          // A page of large events is queued in bounded pieces, each waiting for the reader.
          if (chunk.length >= WRITE_CHUNK_CHARS) {
            await write(chunk);
            chunk = '';
          }
        }
        if (chunk !== '' && !isClosed) await write(chunk);
        if (isTerminal || (events.length > 0 && taken === 0)) break;
      }
    } finally {
      clock.clearTimeout(deadline);
      guard.stop();
      unsubscribe();
      signal.removeEventListener('abort', clientGone);
      isClosed = true;
      if (!hasEnded) {
        hasEnded = true;
        closeQuietly(controller);
      }
    }
  };

  const waitForRing = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = clock.setTimeout(() => {
        wake = null;
        resolve(false);
      }, ms);
      wake = () => {
        clock.clearTimeout(timer);
        wake = null;
        resolve(true);
      };
    });

  const done = run().catch((error: unknown) => {
    options.onError(error);
    if (!hasEnded) {
      hasEnded = true;
      controller?.error(error);
    }
  });
  return { response, close: finish, done };
}

/** Ends the body; a reader that cancelled it already has closed it. */
function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array> | null): void {
  try {
    controller?.close();
  } catch {
    // Cancelled by its reader: nothing is left to end.
  }
}

/** The protocol's SSE frame of one event (docs/protocol.md §6.2); the stream ends after the terminal one. */
function frameProtocolEvent(event: EventEnvelope): { text: string; isEnd: boolean } {
  return { text: `id: ${event.cursor}\ndata: ${JSON.stringify(event)}\n\n`, isEnd: isTerminalEvent(event) };
}
