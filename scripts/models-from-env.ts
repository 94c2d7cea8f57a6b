import type { ModelInfo } from '../src/core/protocol.ts';
import { providerModelFromEnv } from '../src/server/models/create-model-from-env.ts';
import type { RunEngine } from '../src/server/runs/run-handle.ts';

/**
 * The models bootstrap lists for `npm start`'s real model: those of `engine` (the model
 * `createModelFromEnv` made from `AGENT_MODEL` and its provider or base URL, named by its own id),
 * reading images when `AGENT_MODEL_IMAGE_INPUT=true`, so attached images reach it (docs/protocol.md
 * §5.8). Undefined for the scripted model or a remote AG-UI agent: the handler lists the engine's
 * models then (or its defaults). Throws a `RangeError` naming a malformed setting.
 */
export function readModelsFromEnv(
  env: Record<string, string | undefined>,
  engine: Pick<RunEngine, 'models'>,
): ModelInfo[] | undefined {
  const imageInput = env['AGENT_MODEL_IMAGE_INPUT']?.trim() ?? '';
  if (!['', 'true', 'false'].includes(imageInput)) {
    throw new RangeError(`AGENT_MODEL_IMAGE_INPUT must be true or false (got "${imageInput}").`);
  }
  const isRealModel = providerModelFromEnv(env) !== undefined && (env['AGUI_AGENT_URL']?.trim() ?? '') === '';
  if (!isRealModel || engine.models === undefined) return undefined;
  return engine.models.map((model) => ({ ...model, imageInput: imageInput === 'true' }));
}
