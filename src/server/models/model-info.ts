import type { ModelInfo } from '../../core/protocol.ts';
import type { ModelAdapter } from './model-adapter.ts';

/**
 * How bootstrap lists `model` when the handler is given no `models`: its `id` (what the model
 * reports in `RUN_STARTED.model` and usage) and `label` (default the id), the default and
 * available, with the reasoning efforts it takes.
 */
export function modelInfoOf(model: Pick<ModelAdapter, 'id' | 'label' | 'reasoningOptions'>): ModelInfo {
  return {
    modelId: model.id,
    label: model.label ?? model.id,
    default: true,
    available: true,
    reasoningOptions: [...(model.reasoningOptions ?? [])],
  };
}
