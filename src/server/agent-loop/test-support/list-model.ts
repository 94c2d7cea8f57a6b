import type { ModelAdapter, ModelChunk, ModelRequest } from '../../models/model-adapter.ts';

/** A chunk to yield, or an error to throw at that point of the stream. */
export type ListModelStep =
  ModelChunk | { type: 'throw'; error: unknown } | { type: 'call'; run: () => Promise<unknown> };

/**
 * A test model that plays one list of steps per call, in order (the last list repeats), and
 * records every request it got. It takes the efforts the scripted model takes (`low`, `medium`,
 * `high`), so the handler's default `models` match it.
 */
export function createListModel(calls: ListModelStep[][]): ModelAdapter & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'list-model',
    reasoningOptions: ['low', 'medium', 'high'],
    requests,
    async *stream(request, signal) {
      requests.push(request);
      const steps = calls[Math.min(requests.length, calls.length) - 1] ?? [];
      for (const step of steps) {
        await Promise.resolve();
        signal.throwIfAborted();
        if (step.type === 'throw') throw step.error;
        if (step.type === 'call') await step.run();
        else yield step;
      }
    },
  };
}
