import type { ModelMessage, ToolSpec } from '../models/model-adapter.ts';

/** The estimate where no provider has reported usage yet: four characters per token. */
export const DEFAULT_TOKENS_PER_CHAR = 0.25;
/** Characters counted for each message besides its text (its role and framing in the provider's template). */
const MESSAGE_OVERHEAD_CHARS = 16;
/** A calibration never leaves this range, so one odd report cannot make the estimate absurd. */
const TOKENS_PER_CHAR_RANGE = { min: 0.02, max: 2 } as const;

/** The characters one message costs in a request: its text, its tool calls and its framing. */
export function countMessageChars(message: ModelMessage): number {
  let chars = message.content.length + MESSAGE_OVERHEAD_CHARS;
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  return chars;
}

/** The characters the tool list costs in a request (its JSON). */
export function countToolChars(tools: readonly ToolSpec[]): number {
  return tools.length === 0 ? 0 : JSON.stringify(tools).length;
}

/** The characters a whole request costs: its messages and its tool list. */
export function countRequestChars(messages: readonly ModelMessage[], tools: readonly ToolSpec[]): number {
  return messages.reduce((sum, message) => sum + countMessageChars(message), countToolChars(tools));
}

/** Converts characters to estimated tokens at `tokensPerChar`, rounding up. */
export function estimateTokens(chars: number, tokensPerChar: number): number {
  return Math.ceil(chars * tokensPerChar);
}

/**
 * What the provider's reported prompt tokens say about characters per token, per session and
 * model (docs/agent-loop.md, "Context budget"): the last request's `inputTokens` over its
 * characters calibrates the estimate of the next. Kept in memory, least recently used forgotten;
 * a session without a report (or after a restart) uses {@link DEFAULT_TOKENS_PER_CHAR}.
 */
export interface TokenCalibration {
  tokensPerChar(key: string): number;
  /** Records that a request of `chars` characters cost `promptTokens` (ignored when either is not positive). */
  record(key: string, chars: number, promptTokens: number): void;
}

/** Creates the calibration, keeping at most `maxEntries` sessions. */
export function createTokenCalibration(maxEntries = 10_000): TokenCalibration {
  const ratios = new Map<string, number>();
  return {
    tokensPerChar(key) {
      const ratio = ratios.get(key);
      if (ratio === undefined) return DEFAULT_TOKENS_PER_CHAR;
      ratios.delete(key);
      ratios.set(key, ratio);
      return ratio;
    },
    record(key, chars, promptTokens) {
      if (!(chars > 0 && promptTokens > 0)) return;
      const ratio = Math.min(TOKENS_PER_CHAR_RANGE.max, Math.max(TOKENS_PER_CHAR_RANGE.min, promptTokens / chars));
      ratios.delete(key);
      ratios.set(key, ratio);
      if (ratios.size > maxEntries) ratios.delete(ratios.keys().next().value as string);
    },
  };
}
