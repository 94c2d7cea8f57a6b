import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../core/clock.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.ts';
import { fail, ProblemError } from './problem-error.ts';

/** Options of {@link readJsonBody}. */
export interface ReadJsonBodyOptions {
  /** More bytes than this (declared or received) → `413 PAYLOAD_TOO_LARGE`. */
  maxBytes: number;
  /** The whole body must arrive within this many ms of the first read → `408 REQUEST_TIMEOUT`. */
  timeoutMs: number;
  clock: Clock;
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

// Both end the exchange early while the client may still be sending: the answer closes the connection.
const CLOSE_CONNECTION = { Connection: 'close' };

/**
 * Reads a request body as JSON. Throws `413 PAYLOAD_TOO_LARGE` as soon as the declared or
 * received size passes `maxBytes`, `408 REQUEST_TIMEOUT` when the body is not complete within
 * `timeoutMs` (both stop reading and close the connection), `422 VALIDATION_FAILED` for bytes that
 * are not UTF-8 JSON, that nest deeper than {@link MAX_JSON_DEPTH} (checked before parsing) or that
 * hold a number no double can represent (`1e999`; `details.reason` says which), and
 * {@link RequestAbortedError} when the client goes away first. An empty body is `{}`.
 */
export async function readJsonBody(req: IncomingMessage, options: ReadJsonBodyOptions): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > options.maxBytes) throw tooLarge(options.maxBytes);
  const chunks = await collect(req, options);
  const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
  if (size === 0) return {};
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'The request body is not valid UTF-8.',
      details: { reason: MALFORMED_REASONS.utf8 },
    });
  }
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
      details: { reason: MALFORMED_REASONS.depth, maxDepth: MAX_JSON_DEPTH },
    });
  }
  let value: unknown;
  let hasNonFinite = false;
  try {
    // A number too large for a double (`1e999`) parses to Infinity, which no JSON can hold.
    value = JSON.parse(text, (_key, member: unknown) => {
      if (typeof member === 'number' && !Number.isFinite(member)) hasNonFinite = true;
      return member;
    }) as unknown;
  } catch {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'The request body is not valid JSON.',
      details: { reason: MALFORMED_REASONS.json },
    });
  }
  if (hasNonFinite) {
    return fail({
      code: 'VALIDATION_FAILED',
      detail: 'The request body has a number too large to represent.',
      details: { reason: MALFORMED_REASONS.number },
    });
  }
  return value;
}

const MALFORMED_REASONS = {
  utf8: 'malformed_utf8',
  depth: 'too_deep',
  json: 'malformed_json',
  number: 'number_out_of_range',
} as const;
const MALFORMED = new Set<unknown>(Object.values(MALFORMED_REASONS));

/** Whether `error` is {@link readJsonBody}'s refusal of bytes that are not a usable JSON document (a `422`). */
export function isMalformedBody(error: unknown): boolean {
  return error instanceof ProblemError && MALFORMED.has(error.init.details?.reason);
}

function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError({
    code: 'PAYLOAD_TOO_LARGE',
    detail: `The body may be at most ${maxBytes} bytes.`,
    details: { maxRequestBytes: maxBytes },
    headers: CLOSE_CONNECTION,
  });
}

// Listeners rather than `for await`: leaving an async iterator early destroys the socket, and
// the 413 or 408 answer still has to be written on it.
function collect(req: IncomingMessage, options: ReadJsonBodyOptions): Promise<Buffer[]> {
  const { maxBytes, timeoutMs, clock } = options;
  return new Promise((resolve, reject) => {
    // Reset while an earlier step (authentication) was awaited: Node has already destroyed it.
    if (req.destroyed) {
      reject(new RequestAbortedError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: Error | null): void => {
      clock.clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
      if (error === null) {
        resolve(chunks);
        return;
      }
      if (error instanceof ProblemError) req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) settle(tooLarge(maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = (): void => settle(null);
    // `error` (ECONNRESET "aborted") or `close` before `end`: the client is gone, nothing to answer.
    const onGone = (): void => settle(new RequestAbortedError());
    const timer = clock.setTimeout(() => {
      settle(
        new ProblemError({
          code: 'REQUEST_TIMEOUT',
          detail: `The request body must arrive within ${timeoutMs} ms.`,
          details: { requestBodyTimeoutMs: timeoutMs },
          headers: CLOSE_CONNECTION,
        }),
      );
    }, timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}
