import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.ts';
import { fail, ProblemError } from './problem-error.ts';
import type { RequestBodyOptions } from './request-body.ts';
import { openRequestBody } from './request-body.ts';

/** Options of {@link readJsonBody}. */
export interface ReadJsonBodyOptions extends RequestBodyOptions {
  /** When set, a body with any bytes is refused with what this returns (a body that must be empty). */
  onlyEmpty?: () => ProblemError;
}

/**
 * Reads a request body as JSON. Throws `413 PAYLOAD_TOO_LARGE` as soon as the declared or
 * received size passes `maxBytes`, `408 REQUEST_TIMEOUT` when the body is not complete within
 * `timeoutMs` (both stop reading and close the connection), `422 VALIDATION_FAILED` for bytes that
 * are not UTF-8 JSON, that nest deeper than {@link MAX_JSON_DEPTH} (checked before parsing) or that
 * hold a number no double can represent (`1e999`; `details.reason` says which), and
 * `RequestAbortedError` when the client goes away first. An empty body is `{}`.
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
 * `RequestAbortedError`.
 */
export async function readBodyBytes(request: Request, options: RequestBodyOptions): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of openRequestBody(request, options).chunks()) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return concatBytes(chunks, size);
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
