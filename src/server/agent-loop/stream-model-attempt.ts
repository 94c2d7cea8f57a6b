import type { FinishReason, TokenUsage } from '../../core/protocol.ts';
import type { ModelFinishReason, ModelRequest } from '../models/model-adapter.ts';
import { ModelError } from '../models/model-adapter.ts';
import type { DeltaCoalescer } from './delta-coalescer.ts';
import { createDeltaCoalescer } from './delta-coalescer.ts';
import type { RunContext } from './engine-options.ts';
import { isCancelStop } from './loop-stop.ts';

/** A tool call as the model produced it (arguments still raw JSON text). */
export interface RawToolCall {
  providerId: string;
  name: string;
  argumentsText: string;
}

/** What one successful model attempt produced. */
export interface AttemptResult {
  text: string;
  /** The assistant message's id, when the attempt streamed any text. */
  textMessageId: string | undefined;
  toolCalls: RawToolCall[];
  finishReason: ModelFinishReason;
  /** What the provider reported for this attempt (its prompt tokens calibrate the next estimate), if anything. */
  usage: TokenUsage | null;
}

/** A failed attempt: its cause and the messages it opened (closed already, maybe to discard). */
export class AttemptFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly messageIds: readonly string[],
  ) {
    super('The model attempt failed.');
    this.name = 'AttemptFailure';
  }
}

interface OpenMessage {
  messageId: string;
  coalescer: DeltaCoalescer;
}

/**
 * Streams one model attempt into the log: reasoning as `REASONING_*`, text as `TEXT_MESSAGE_*`
 * (deltas coalesced), and collects tool calls (not yet logged). On failure it closes what it
 * opened (`finishReason` `cancelled` on a cancel, else `error`) and throws `AttemptFailure`.
 */
export async function streamModelAttempt(
  context: RunContext,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<AttemptResult> {
  const { settings, writer } = context;
  const opened: string[] = [];
  let reasoning: OpenMessage | null = null;
  let text: OpenMessage | null = null;
  let textContent = '';
  let finishReason: ModelFinishReason | undefined;
  /** Providers report a running total; the last one seen is this attempt's usage. */
  let attemptUsage: TokenUsage | null = null;
  const calls = new Map<number, RawToolCall>();

  const open = (kind: 'text' | 'reasoning'): OpenMessage => {
    const messageId = settings.ids('msg');
    opened.push(messageId);
    const type = kind === 'text' ? 'TEXT_MESSAGE_CONTENT' : 'REASONING_MESSAGE_CONTENT';
    const coalescer = createDeltaCoalescer({
      clock: settings.clock,
      flushMs: settings.limits.deltaFlushMs,
      flushBytes: settings.limits.deltaFlushBytes,
      emit: (delta) => writer.post(type, { messageId, delta }),
    });
    if (kind === 'text') {
      writer.post('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
    } else {
      writer.post('REASONING_START', { messageId });
      writer.post('REASONING_MESSAGE_START', { messageId, role: 'reasoning' });
    }
    return { messageId, coalescer };
  };
  const closeReasoning = (): void => {
    if (reasoning === null) return;
    reasoning.coalescer.flush();
    writer.post('REASONING_MESSAGE_END', { messageId: reasoning.messageId });
    writer.post('REASONING_END', { messageId: reasoning.messageId });
    reasoning = null;
  };
  let lastTextMessageId: string | undefined;
  const closeText = (reason: FinishReason): void => {
    if (text === null) return;
    text.coalescer.flush();
    writer.post('TEXT_MESSAGE_END', { messageId: text.messageId, finishReason: reason });
    lastTextMessageId = text.messageId;
  };

  try {
    for await (const chunk of settings.model.stream(request, signal)) {
      signal.throwIfAborted();
      writer.check();
      switch (chunk.type) {
        case 'reasoning':
          if (!settings.showReasoning || chunk.delta === '') break;
          reasoning ??= open('reasoning');
          reasoning.coalescer.push(chunk.delta);
          break;
        case 'text':
          if (chunk.delta === '') break;
          closeReasoning();
          text ??= open('text');
          textContent += chunk.delta;
          text.coalescer.push(chunk.delta);
          break;
        case 'tool_call':
          calls.set(1_000_000 + calls.size, { providerId: chunk.id, name: chunk.name, argumentsText: chunk.arguments });
          break;
        case 'tool_call_delta': {
          const call = calls.get(chunk.index) ?? { providerId: '', name: '', argumentsText: '' };
          // The first non-empty id wins: some providers (Qwen) repeat `"id": ""` in later fragments.
          if (call.providerId === '' && chunk.id !== undefined) call.providerId = chunk.id;
          if (chunk.name !== undefined) call.name += chunk.name;
          if (chunk.argumentsDelta !== undefined) call.argumentsText += chunk.argumentsDelta;
          calls.set(chunk.index, call);
          break;
        }
        case 'usage':
          attemptUsage = chunk.usage;
          break;
        case 'text_end':
          closeText('stop');
          text = null;
          break;
        case 'event':
          // Buffered deltas go first, so the log keeps the stream's order.
          reasoning?.coalescer.flush();
          text?.coalescer.flush();
          writer.post(chunk.event.type, chunk.event.data as never);
          break;
        case 'finish':
          finishReason = chunk.reason;
          break;
      }
    }
    if (finishReason === undefined) {
      throw new ModelError("The model's answer ended unexpectedly.", {
        retryable: true,
        providerMessage: 'stream ended without a finish reason',
      });
    }
    closeReasoning();
    // An answer cut at the length limit before any text still gets a message, so the cut shows.
    if (finishReason === 'length' && text === null && calls.size === 0) text = open('text');
    closeText(finishReason);
    await writer.drain();
    return {
      text: textContent,
      textMessageId: text?.messageId ?? lastTextMessageId,
      toolCalls: [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({ ...call, providerId: call.providerId || `call_${index}` })),
      finishReason,
      usage: attemptUsage,
    };
  } catch (error) {
    const cause = signal.aborted ? (signal.reason as unknown) : error;
    closeReasoning();
    closeText(isCancelStop(cause) ? 'cancelled' : 'error');
    await writer.drain();
    throw new AttemptFailure(cause, opened);
  } finally {
    if (attemptUsage !== null) context.usage = addUsage(context.usage, attemptUsage, settings.model.id);
  }
}

/** Adds one attempt's usage to the run's total. */
function addUsage(total: TokenUsage | null, usage: TokenUsage, modelId: string): TokenUsage {
  const sum: TokenUsage = {
    modelId: usage.modelId ?? total?.modelId ?? modelId,
    inputTokens: (total?.inputTokens ?? 0) + usage.inputTokens,
    outputTokens: (total?.outputTokens ?? 0) + usage.outputTokens,
  };
  const reasoningTokens = (total?.reasoningTokens ?? 0) + (usage.reasoningTokens ?? 0);
  if (reasoningTokens > 0) sum.reasoningTokens = reasoningTokens;
  const cachedInputTokens = (total?.cachedInputTokens ?? 0) + (usage.cachedInputTokens ?? 0);
  if (cachedInputTokens > 0) sum.cachedInputTokens = cachedInputTokens;
  return sum;
}
