import { parseRetryAfter } from '../../core/transport/parse-retry-after.ts';
import { ModelError } from './model-adapter.ts';

/** AI SDK errors that mean the request itself is wrong: sending it again cannot help. */
const FATAL_ERROR_NAMES = new Set([
  'AI_InvalidPromptError',
  'AI_InvalidArgumentError',
  'AI_UnsupportedFunctionalityError',
  'AI_LoadAPIKeyError',
  'AI_LoadSettingError',
  'AI_NoSuchModelError',
]);

/** Words of a provider's in-stream error type or code that mean "try again later". */
const RETRYABLE_STREAM_ERROR = /overload|rate.?limit|server.?error|api_error|unavailable|timeout|internal|busy/i;

/**
 * Maps what an AI SDK model threw (`APICallError` with its `statusCode`, `isRetryable` and
 * response headers, another `AI_*` error, a network failure) to a `ModelError`: retryable as the
 * provider package says, else by status (408, 429, 5xx), else by name (a bad prompt or a missing
 * key is fatal, anything else, like a dropped connection, is worth one more try). `Retry-After`
 * is honoured. The provider's own text only ever lands in `providerMessage`. `phase` says whether
 * the answer had started streaming: a retryable failure without an HTTP error status is then a
 * broken connection, not an unreachable service.
 */
export function toModelErrorFromThrown(
  error: unknown,
  nowMs: number,
  phase: 'request' | 'stream' = 'request',
): ModelError {
  if (error instanceof ModelError) return error;
  const fields = isRecord(error) ? error : {};
  const status = typeof fields['statusCode'] === 'number' ? fields['statusCode'] : undefined;
  const name = typeof fields['name'] === 'string' ? fields['name'] : '';
  const retryable =
    typeof fields['isRetryable'] === 'boolean'
      ? fields['isRetryable']
      : status !== undefined
        ? status === 408 || status === 429 || status >= 500
        : !FATAL_ERROR_NAMES.has(name);
  const retryAfterMs = readRetryAfter(fields['responseHeaders'], nowMs);
  const message =
    status === 429
      ? 'The model service is busy (rate limited).'
      : !retryable
        ? 'The model service rejected the request.'
        : status !== undefined && status >= 400
          ? 'The model service had a temporary problem.'
          : phase === 'stream'
            ? 'The connection to the model service broke.'
            : 'The model service could not be reached.';
  const body = typeof fields['responseBody'] === 'string' ? ` ${fields['responseBody']}` : '';
  // A body that broke off mid-answer comes wrapped ("Failed to process successful response"): its cause says how.
  const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : '';
  const text = error instanceof Error ? error.message : String(error);
  return new ModelError(message, {
    retryable,
    providerMessage: `${name || 'Error'}: ${text}${cause}${body}`.slice(0, 2000),
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * Maps an `error` stream part (the provider reported a failure after the response started, e.g.
 * Anthropic's `overloaded_error` or the Responses API's `insufficient_quota`): retryable when its
 * type or code speaks of overload, rate limits or a server fault, fatal otherwise.
 */
export function toModelErrorFromStream(error: unknown, nowMs: number): ModelError {
  if (error instanceof Error) return toModelErrorFromThrown(error, nowMs, 'stream');
  const fields = isRecord(error) ? error : {};
  const inner = isRecord(fields['error']) ? fields['error'] : fields;
  const kind = [inner['type'], inner['code'], inner['status']].filter((v) => typeof v === 'string').join(' ');
  const retryable = RETRYABLE_STREAM_ERROR.test(kind);
  return new ModelError(
    retryable ? 'The model service had a temporary problem.' : 'The model service reported an error.',
    { retryable, providerMessage: JSON.stringify(error).slice(0, 2000) },
  );
}

function readRetryAfter(headers: unknown, nowMs: number): number | undefined {
  if (!isRecord(headers)) return undefined;
  const value = headers['retry-after'];
  return typeof value === 'string' ? (parseRetryAfter(value, nowMs) ?? undefined) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
