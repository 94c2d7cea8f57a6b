import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventEnvelope, StreamSettings } from '../../core/protocol.ts';
import { isTerminalEvent, RUN_LAST_SEQ_HEADER } from '../../core/protocol.ts';
import type { EventReader } from '../runs/event-log.ts';
import type { Clock } from '../../core/clock.ts';
import { STREAM_RESPONSE_HEADERS } from '../http/respond.ts';
import { createStallGuard } from './stall-guard.ts';

/** Frames are written in pieces of about this many characters (then backpressure applies). */
const WRITE_CHUNK_CHARS = 64 * 1024;

/** Options of {@link streamRunEvents}. */
export interface StreamRunEventsOptions {
  req: IncomingMessage;
  res: ServerResponse;
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
  /** A consumer whose unsent buffer passes this many bytes is cut (default 4 MiB). */
  maxBufferedBytes?: number;
  /** A consumer that has taken no bytes for this long while some wait is cut (default 30 s). */
  stallTimeoutMs?: number;
  /**
   * Gets what ended the stream early by failing (a log read the storage refused, e.g. a damaged
   * page of a SQLite file): the client only sees the body end and resumes, so this is its trace.
   */
  onError: (error: unknown) => void;
}

/** A live stream: `close` ends it cleanly (drain, shutdown); `done` settles when it is over. */
export interface RunEventStream {
  close(): void;
  done: Promise<void>;
}

/**
 * Serves `GET /runs/{id}/events` after the cursor checks (docs/protocol.md §6, §9, §15): the SSE
 * headers, `retry:` and `: open`, every stored event after the cursor, then live events read from
 * the LOG after each doorbell (never from the producer), `: hb <epochMs>` after `heartbeatSec` of
 * silence, and the end of the body right after the terminal event or at `maxStreamDurationSec`.
 * A slow consumer only lags; past the buffer limit, or when it has taken no bytes for
 * `stallTimeoutMs` (see `createStallGuard`), it is cut and resumes from its cursor.
 */
export function streamRunEvents(options: StreamRunEventsOptions): RunEventStream {
  const { req, res, runId, eventLog, settings, clock } = options;
  const pageSize = options.pageSize ?? 500;
  const maxBufferedBytes = options.maxBufferedBytes ?? 4 * 1024 * 1024;
  const frame = options.frame ?? frameProtocolEvent;
  let cursor = options.afterSeq;
  let isWoken = true;
  let isClosed = false;
  let wake: (() => void) | null = null;
  /** Ends the wait of a write parked on backpressure. */
  let releaseWrite: (() => void) | null = null;

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
  res.on('close', finish);
  req.on('close', () => {
    if (!res.writableFinished) finish();
  });
  // The client may have gone during the route's checks: its `close` has fired already.
  if (res.destroyed) finish();

  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    ...STREAM_RESPONSE_HEADERS,
    'X-Accel-Buffering': 'no',
    [RUN_LAST_SEQ_HEADER]: String(options.lastSeq),
    ...options.headers,
  });
  res.socket?.setNoDelay(true);

  const cut = (): void => {
    res.destroy();
    finish();
  };
  const guard = createStallGuard({ res, clock, timeoutMs: options.stallTimeoutMs ?? 30_000, onStall: cut });
  // A write after the client left must not surface as an unhandled `error` on the response.
  res.on('error', cut);

  const write = async (text: string): Promise<void> => {
    if (isClosed || res.destroyed) return;
    if (guard.write(text)) return;
    if (res.writableLength > maxBufferedBytes) {
      cut();
      return;
    }
    // Backpressure: read no more of the log until the client drains, the stream is closed, or the
    // stall guard cuts it.
    await new Promise<void>((resolve) => {
      const onDone = (): void => {
        res.off('drain', onDone);
        res.off('close', onDone);
        releaseWrite = null;
        resolve();
      };
      res.on('drain', onDone);
      res.on('close', onDone);
      releaseWrite = onDone;
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
          // A page of large events goes out in bounded writes, each waiting for the client to drain,
          // so a burst never passes `maxBufferedBytes` by itself (a resumed page would again).
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
      isClosed = true;
      if (!res.destroyed && !res.writableEnded) res.end();
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
    if (!res.destroyed) res.destroy();
  });
  return { close: finish, done };
}

/** The protocol's SSE frame of one event (docs/protocol.md §6.2); the stream ends after the terminal one. */
function frameProtocolEvent(event: EventEnvelope): { text: string; isEnd: boolean } {
  return { text: `id: ${event.cursor}\ndata: ${JSON.stringify(event)}\n\n`, isEnd: isTerminalEvent(event) };
}
