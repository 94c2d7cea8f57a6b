import type { RunHandle } from '../runs/run-handle.ts';
import type { EngineSettings } from './engine-options.ts';
import type { ContextLayers } from './fit-context.ts';
import { buildHistoryTurns } from './history-turns.ts';

/**
 * Gathers the layers of a run's model requests (docs/agent-loop.md, "Prompt layers"): the
 * kernel prompt (the server's), the product prompt (the run's agent version), the send's focus
 * context, resolved attachments and instruction (from the run's start, never from the history),
 * and the session's earlier runs rebuilt as turns with their tool calls and results.
 */
export function buildContextLayers(settings: EngineSettings, handle: RunHandle): ContextLayers {
  const { input } = handle;
  return {
    kernel: settings.kernelPrompt,
    product: settings.productPrompt,
    focus: input.focus ?? null,
    attachments: input.attachments ?? [],
    instruction: input.instruction ?? null,
    history: buildHistoryTurns({
      messages: handle.history,
      toolCalls: handle.historyToolCalls ?? [],
      maxResultChars: settings.limits.maxResultChars,
    }),
  };
}
