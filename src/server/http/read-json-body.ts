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
  /** When set, a body with any bytes is refused with what this returns (a body that must be empty). */
  onlyEmpty?: () => ProblemError;
  /** The published limit `maxBytes` is, named in the `413`'s details. Default `maxRequestBytes`. */
  limitName?: string;
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
export async function readJsonBody(request: Request, options: ReadJsonBodyOptions): Promise<unknown> {
  const bytes = await readBodyBytes(request, options);
  if (bytes.byteLength === 0) return {};
  if (options.onlyEmpty !== undefined) throw options.onlyEmpty();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
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

/**
 * Reads a request body as bytes, with {@link readJsonBody}'s `413`, `408` and
 * {@link RequestAbortedError} (a body that is not JSON: an uploaded file).
 */
export async function readBodyBytes(request: Request, options: ReadJsonBodyOptions): Promise<Uint8Array> {
  const limitName = options.limitName ?? 'maxRequestBytes';
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > options.maxBytes) throw tooLarge(options.maxBytes, limitName);
  return request.body === null ? new Uint8Array(0) : await collect(request.body, options);
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

function tooLarge(maxBytes: number, limitName: string): ProblemError {
  return new ProblemError({
    code: 'PAYLOAD_TOO_LARGE',
    detail: `The body may be at most ${maxBytes} bytes.`,
    details:
      limitName === 'maxRequestBytes' ? { maxRequestBytes: maxBytes } : { limit: limitName, [limitName]: maxBytes },
    headers: CLOSE_CONNECTION,
  });
}

/**
 * Reads `body` to its end within `timeoutMs` and `maxBytes`. Past either it cancels the stream
 * (the Node adapter then stops reading the socket without destroying it, so the 413 or 408 answer
 * can still be written) and throws; a stream that fails (the client reset or closed the
 * connection) is {@link RequestAbortedError}.
 */
async function collect(body: ReadableStream<Uint8Array>, options: ReadJsonBodyOptions): Promise<Uint8Array> {
  const { maxBytes, timeoutMs, clock } = options;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader();
  } catch {
    // Already read or locked: nothing of it is left for this request.
    throw new RequestAbortedError();
  }
  let timer: unknown = null;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = clock.setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const refuse = (error: ProblemError): never => {
    reader.cancel(error).catch(() => undefined);
    throw error;
  };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array> | 'timeout';
      try {
        next = await Promise.race([reader.read(), timedOut]);
      } catch {
        throw new RequestAbortedError();
      }
      if (next === 'timeout') {
        return refuse(
          new ProblemError({
            code: 'REQUEST_TIMEOUT',
            detail: `The request body must arrive within ${timeoutMs} ms.`,
            details: { requestBodyTimeoutMs: timeoutMs },
            headers: CLOSE_CONNECTION,
          }),
        );
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) return refuse(tooLarge(maxBytes, options.limitName ?? 'maxRequestBytes'));
      chunks.push(next.value);
    }
  } finally {
    clock.clearTimeout(timer);
  }
  return concatBytes(chunks, size);
}

function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
