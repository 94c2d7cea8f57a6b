import type { ModelInfo } from '../src/core/protocol.ts';
import { providerModelFromEnv } from '../src/server/models/create-model-from-env.ts';

/**
 * The model bootstrap lists for `npm start`'s real model: `AGENT_MODEL` (with the provider or
 * base URL `createModelFromEnv` reads), which reads images when `AGENT_MODEL_IMAGE_INPUT=true`, so
 * attached images reach it (docs/protocol.md §5.8). Undefined for the scripted model or a remote
 * AG-UI agent: the handler's defaults then. Throws a `RangeError` naming a malformed setting.
 */
export function readModelsFromEnv(env: Record<string, string | undefined>): ModelInfo[] | undefined {
  const imageInput = env['AGENT_MODEL_IMAGE_INPUT']?.trim() ?? '';
  if (!['', 'true', 'false'].includes(imageInput)) {
    throw new RangeError(`AGENT_MODEL_IMAGE_INPUT must be true or false (got "${imageInput}").`);
  }
  const model = providerModelFromEnv(env);
  if (model === undefined || (env['AGUI_AGENT_URL']?.trim() ?? '') !== '') return undefined;
  return [{ modelId: model, label: model, default: true, available: true, imageInput: imageInput === 'true' }];
}
