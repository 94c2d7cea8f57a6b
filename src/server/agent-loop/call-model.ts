import { RunClosedError } from '../runs/run-handle.ts';
import type { ModelRequest } from '../models/model-adapter.ts';
import { ModelError } from '../models/model-adapter.ts';
import type { RunContext } from './engine-options.ts';
import { linkAbort, LoopStop, stopWithError } from './loop-stop.ts';
import type { AttemptResult } from './stream-model-attempt.ts';
import { AttemptFailure, streamModelAttempt } from './stream-model-attempt.ts';

const MAX_BACKOFF_MS = 30_000;

/**
 * Calls the model for one round with retries: each attempt has its own timeout; a retryable
 * failure retracts what the attempt streamed (`MESSAGE_DISCARDED{attempt_retry}`), says when the
 * next attempt starts (`NOTICE{MODEL_RETRYING}` with `attempt` and `retryAt`), waits with
 * exponential backoff (or the provider's Retry-After) and tries again, up to `maxRetries`.
 * Throws a `LoopStop` with `MODEL_ERROR`/`MODEL_TIMEOUT` when it gives up, and the round
 * signal's reason when that aborts (cancel and deadlines are never retried).
 */
export async function callModel(
  context: RunContext,
  request: ModelRequest,
  roundSignal: AbortSignal,
): Promise<AttemptResult> {
  const { settings, writer } = context;
  const { limits, clock } = settings;
  for (let attempt = 1; ; attempt += 1) {
    roundSignal.throwIfAborted();
    const link = linkAbort(roundSignal);
    const timer = clock.setTimeout(() => {
      link.controller.abort(
        new ModelError('The model took too long to answer.', { code: 'MODEL_TIMEOUT', retryable: true }),
      );
    }, limits.attemptTimeoutMs);
    let failure: AttemptFailure;
    const observed = context.handle.observer?.modelCall({ modelId: settings.model.id, attempt });
    try {
      const result = await streamModelAttempt(context, { ...request, attempt }, link.controller.signal);
      observed?.succeeded(result);
      return result;
    } catch (error) {
      if (!(error instanceof AttemptFailure)) {
        observed?.failed(error, false);
        throw error;
      }
      failure = error;
    } finally {
      clock.clearTimeout(timer);
      link.dispose();
    }
    const cause = failure.error;
    const willRetry = cause instanceof ModelError && cause.retryable && attempt <= limits.maxRetries;
    observed?.failed(cause, willRetry && !roundSignal.aborted);
    if (roundSignal.aborted) throw roundSignal.reason;
    if (cause instanceof RunClosedError || cause instanceof LoopStop) throw cause;
    if (!(cause instanceof ModelError)) {
      const correlationId = settings.ids('corr');
      settings.log({
        level: 'error',
        message: 'model adapter threw a non-ModelError',
        runId: context.handle.runId,
        correlationId,
        detail: cause,
      });
      throw stopWithError('MODEL_ERROR', context.texts.modelFailed, true);
    }
    settings.log({
      level: cause.retryable && attempt <= limits.maxRetries ? 'warn' : 'error',
      message: `model attempt ${attempt} failed: ${cause.code}${cause.status === undefined ? '' : ` (HTTP ${cause.status})`}`,
      runId: context.handle.runId,
      detail: cause.providerMessage,
    });
    // Sending the same again helps after retries ran out, never after a non-retryable answer (a 400).
    if (!cause.retryable || attempt > limits.maxRetries)
      throw stopWithError(cause.code, cause.message, cause.retryable);
    for (const messageId of failure.messageIds)
      await writer.append('MESSAGE_DISCARDED', { messageId, reason: 'attempt_retry' });
    const backoff = limits.retryBaseMs * 2 ** (attempt - 1) * (0.5 + settings.random() / 2);
    const delayMs = Math.min(MAX_BACKOFF_MS, cause.retryAfterMs ?? backoff);
    // The user sees why nothing comes yet, and for how long ("Retrying in 3 s…"); the next attempt
    // starts at the moment announced (whole milliseconds, as the timestamp says it), never before.
    const retryAtMs = Math.ceil(clock.now() + delayMs);
    await writer.append('NOTICE', {
      level: 'info',
      code: 'MODEL_RETRYING',
      message: context.texts.modelRetrying,
      attempt: attempt + 1,
      retryAt: new Date(retryAtMs).toISOString(),
    });
    await settings.sleep(Math.max(0, retryAtMs - clock.now()), roundSignal);
  }
}
