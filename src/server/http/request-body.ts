import type { Clock } from '../../core/clock.ts';
import { DomainError } from '../domain-error.ts';
import { ProblemError, toProblemError } from './problem-error.ts';

/** Options of {@link openRequestBody}. */
export interface RequestBodyOptions {
  /** More bytes than this (declared or received) → `413 PAYLOAD_TOO_LARGE`. */
  maxBytes: number;
  /** The whole body must arrive within this many ms of the first read → `408 REQUEST_TIMEOUT`. */
  timeoutMs: number;
  clock: Clock;
  /** The published limit `maxBytes` is, named in the `413`'s details. Default `maxRequestBytes`. */
  limitName?: string;
}

/** A request body a route reads itself, chunk by chunk (an upload streamed to its store). */
export interface RequestBody {
  /** The declared `Content-Length`; null when none was declared (a chunked body). */
  readonly declaredBytes: number | null;
  /**
   * The body's chunks, each read from the client only when the loop asks for it (so at most one
   * is held), within `maxBytes` (`413`) and `timeoutMs` (`408`); both stop reading. A client that
   * goes away is {@link RequestAbortedError}. Read once.
   */
  chunks(): AsyncIterable<Uint8Array>;
}

/** The reader the core keeps of a {@link RequestBody}: whether it was read to its end, and a cancel. */
export interface RequestBodyReader extends RequestBody {
  /** Whether nothing of the body is left unread (read to its end, or there was none). */
  isDone(): boolean;
  /** Stops reading what is left (no-op once done). */
  cancel(): void;
}

/**
 * The client went away (reset or closed the connection) before its body arrived: an expected
 * event, not a server fault; the handler drops the request without logging it.
 */
export class RequestAbortedError extends Error {
  constructor() {
    super('The client closed the connection before its request body arrived.');
    this.name = 'RequestAbortedError';
  }
}

/** Answers that end the exchange while the client may still be sending close the connection. */
export const CLOSE_CONNECTION = { Connection: 'close' } as const;

/**
 * Opens `request`'s body for reading chunk by chunk (docs/server.md, "Cross-cutting rules"): past
 * `maxBytes`, declared or received, `413 PAYLOAD_TOO_LARGE`; not complete within `timeoutMs` of
 * the first read, `408 REQUEST_TIMEOUT`. Either cancels the stream (the Node adapter then stops
 * reading the socket without destroying it, so the answer can still be written) and carries
 * `Connection: close`. Nothing is read until {@link RequestBody.chunks} is iterated.
 */
export function openRequestBody(request: Request, options: RequestBodyOptions): RequestBodyReader {
  const header = request.headers.get('content-length');
  const declared = header === null || !/^\s*\d+\s*$/.test(header) ? null : Number(header);
  const stream = request.body;
  let isDone = stream === null;
  let isStarted = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const cancel = (reason?: unknown): void => {
    if (isDone) return;
    isDone = true;
    if (reader !== null) reader.cancel(reason).catch(() => undefined);
    else if (stream !== null && !stream.locked) stream.cancel(reason).catch(() => undefined);
  };

  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (isStarted) throw new RequestAbortedError();
    isStarted = true;
    const { maxBytes, timeoutMs, clock } = options;
    const refuse = (error: ProblemError): never => {
      cancel(error);
      throw error;
    };
    if (declared !== null && declared > maxBytes) refuse(tooLarge(maxBytes, options.limitName));
    if (stream === null) return;
    try {
      reader = stream.getReader();
    } catch {
      // Already read or locked: nothing of it is left for this request.
      isDone = true;
      throw new RequestAbortedError();
    }
    // A timer that cancels the read, not a race with a promise that lives as long as the body: each
    // race's reaction on that promise would keep its chunk alive until the body ends.
    const timeout = new ProblemError({
      code: 'REQUEST_TIMEOUT',
      detail: `The request body must arrive within ${timeoutMs} ms.`,
      details: { requestBodyTimeoutMs: timeoutMs },
      headers: CLOSE_CONNECTION,
    });
    let isTimedOut = false;
    const timer = clock.setTimeout(() => {
      isTimedOut = true;
      cancel(timeout);
    }, timeoutMs);
    let size = 0;
    try {
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          if (isTimedOut) throw timeout;
          isDone = true;
          throw new RequestAbortedError();
        }
        // A cancelled read ends as if the body had.
        if (isTimedOut) throw timeout;
        if (next.done) {
          isDone = true;
          return;
        }
        size += next.value.byteLength;
        if (size > maxBytes) refuse(tooLarge(maxBytes, options.limitName));
        yield next.value;
      }
    } finally {
      clock.clearTimeout(timer);
      // The loop that read it stopped early (it refused what it read): stop reading the client.
      cancel();
    }
  }

  return { declaredBytes: declared, chunks, isDone: () => isDone, cancel: () => cancel() };
}

/** `413 PAYLOAD_TOO_LARGE` for a body past `maxBytes`, naming its published limit; closes the connection. */
export function tooLarge(maxBytes: number, limitName = 'maxRequestBytes'): ProblemError {
  return new ProblemError({
    code: 'PAYLOAD_TOO_LARGE',
    detail: `The body may be at most ${maxBytes} bytes.`,
    details:
      limitName === 'maxRequestBytes' ? { maxRequestBytes: maxBytes } : { limit: limitName, [limitName]: maxBytes },
    headers: CLOSE_CONNECTION,
  });
}

/**
 * `error` as it is answered while the client may still be sending its body: a refusal closes the
 * connection (`Connection: close`), so what the client still sends is never handed to a route
 * (the Node adapter throws it away while it closes, docs/server.md "Refused bodies").
 */
export function closingConnection(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const problem = toProblemError(error);
  return new ProblemError({
    ...problem.init,
    status: problem.status,
    headers: { ...problem.init.headers, ...CLOSE_CONNECTION },
  });
}
