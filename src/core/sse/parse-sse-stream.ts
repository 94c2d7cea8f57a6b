/**
 * Server-Sent Events parsing, exactly as the WHATWG HTML standard's "event stream interpretation"
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 * Bytes in, frames out, incrementally: chunk boundaries never change the result.
 */
import { pickDefined } from '../pick-defined.ts';

/** One dispatched SSE event (a block of fields ended by a blank line that carried `data`). */
export interface SseFrame {
  /** The `event` field, or `'message'` when the block had none (or an empty one). */
  event: string;
  /** Every `data` field's value of the block joined with `\n` (may be `''` for a bare `data:`). */
  data: string;
  /**
   * The stream's last event id at dispatch: the value of the latest valid `id` field seen so far
   * in the stream (this block or an earlier one, dispatched or not), `''` before any.
   */
  lastEventId: string;
  /** The value of this block's own valid `id` field (the last one), absent when it had none. */
  id?: string;
  /** The reconnection time in ms set by the latest valid `retry` field so far, absent before any. */
  retry?: number;
}

/** Callbacks of {@link createSseParser}; each is called synchronously from `push`/`end`. */
export interface SseParserOptions {
  /** Called once per dispatched frame, in stream order. */
  onFrame: (frame: SseFrame) => void;
  /** Called for each comment line (`:` first) with the text after the colon, one leading space removed. */
  onComment?: (text: string) => void;
}

/**
 * An incremental SSE parser: feed it chunks. At the end of the stream simply stop feeding it: an
 * unterminated line and an undispatched block are then never dispatched, which is the spec's
 * "any pending data must be discarded" (a dangling partial UTF-8 sequence could only have become
 * U+FFFD, never a line end).
 */
export interface SseParser {
  /** Feeds bytes (decoded as streaming UTF-8) or already-decoded text. */
  push(chunk: Uint8Array | string): void;
}

/** Options of {@link parseSseStream}. */
export interface ParseSseStreamOptions {
  /** Aborting cancels the body and makes the iteration reject with `signal.reason`. */
  signal?: AbortSignal;
  onComment?: (text: string) => void;
}

/**
 * Creates an incremental SSE parser.
 *
 * Line ends are LF, CRLF or CR (a CR ending one chunk and an LF starting the next are one line
 * end). A leading U+FEFF is stripped once. Invalid UTF-8 becomes U+FFFD. `id` values containing
 * NUL are ignored; `retry` is honoured only when it is all ASCII digits; unknown fields are
 * ignored; a line without a colon is a field with an empty value; one space after the colon is
 * removed. A blank line dispatches the block unless it had no `data` field at all.
 */
export function createSseParser(options: SseParserOptions): SseParser {
  const { onFrame, onComment } = options;
  // ignoreBOM: the BOM is stripped below for bytes and strings alike, exactly once.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let buffer = '';
  let isAtStreamStart = true;
  let isAfterCarriageReturn = false;
  let dataLines: string[] | null = null;
  let eventType = '';
  let blockId: string | undefined;
  let lastEventId = '';
  let retry: number | undefined;

  function dispatch(): void {
    const frame: SseFrame | null =
      dataLines === null
        ? null
        : {
            event: eventType || 'message',
            data: dataLines.join('\n'),
            lastEventId,
            ...pickDefined({ id: blockId, retry }),
          };
    dataLines = null;
    blockId = undefined;
    eventType = '';
    if (frame !== null) onFrame(frame);
  }

  function processLine(line: string): void {
    if (line === '') return dispatch();
    const colon = line.indexOf(':');
    if (colon === 0) {
      onComment?.(stripOneSpace(line.slice(1)));
      return;
    }
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : stripOneSpace(line.slice(colon + 1));
    switch (field) {
      case 'event':
        eventType = value;
        return;
      case 'data':
        (dataLines ??= []).push(value);
        return;
      case 'id':
        if (!value.includes('\0')) {
          lastEventId = value;
          blockId = value;
        }
        return;
      case 'retry':
        if (/^[0-9]+$/.test(value)) {
          retry = Number.parseInt(value, 10);
        }
    }
  }

  function feedText(text: string): void {
    if (text === '') return;
    if (isAtStreamStart) {
      isAtStreamStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (isAfterCarriageReturn && text.charCodeAt(0) === 0x0a) start = 1;
    isAfterCarriageReturn = false;
    const combined = buffer + text.slice(start);
    let lineStart = 0;
    for (let index = buffer.length; index < combined.length; index += 1) {
      const code = combined.charCodeAt(index);
      if (code !== 0x0a && code !== 0x0d) continue;
      processLine(combined.slice(lineStart, index));
      if (code === 0x0d) {
        if (index + 1 === combined.length) isAfterCarriageReturn = true;
        else if (combined.charCodeAt(index + 1) === 0x0a) index += 1;
      }
      lineStart = index + 1;
    }
    buffer = combined.slice(lineStart);
  }

  return {
    push(chunk) {
      feedText(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
  };
}

/**
 * Reads an SSE body to the end and yields its frames in order.
 *
 * The iteration ends when the body ends (an unterminated final block is discarded). It rejects
 * with whatever the body's reader rejects with (e.g. a network failure mid-stream), or with
 * `signal.reason` when the signal aborts. Leaving the loop early (break/return/throw) cancels the
 * body, which closes the connection. The caller owns the signal.
 */
export async function* parseSseStream(
  body: ReadableStream<Uint8Array>,
  options: ParseSseStreamOptions = {},
): AsyncGenerator<SseFrame, void, undefined> {
  const { signal } = options;
  signal?.throwIfAborted();
  const frames: SseFrame[] = [];
  const parser = createSseParser({
    onFrame: (frame) => frames.push(frame),
    onComment: options.onComment,
  });
  const reader = body.getReader();
  const onAbort = (): void => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let isDone = false;
  try {
    while (true) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        // An aborted fetch errors its body with its own AbortError; report the caller's reason.
        signal?.throwIfAborted();
        throw error;
      }
      signal?.throwIfAborted();
      if (result.done) isDone = true;
      else parser.push(result.value);
      while (frames.length > 0) {
        yield frames.shift() as SseFrame;
        signal?.throwIfAborted();
      }
      if (isDone) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (isDone) reader.releaseLock();
    else await reader.cancel().catch(() => undefined);
  }
}

function stripOneSpace(value: string): string {
  return value.charCodeAt(0) === 0x20 ? value.slice(1) : value;
}
