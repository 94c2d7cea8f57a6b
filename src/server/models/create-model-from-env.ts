import type { Sleep } from '../../core/clock.ts';
import type { ModelAdapter } from './model-adapter.ts';
import { createOpenAiCompatibleModel } from './openai-compatible-model.ts';
import { createScriptedModel } from './scripted-model.ts';

/**
 * Picks the demo's model from the environment: an OpenAI-compatible endpoint when
 * `OPENAI_BASE_URL` and `AGENT_MODEL` are set (`OPENAI_API_KEY` optional, e.g. for Ollama),
 * otherwise the offline scripted model.
 */
export function createModelFromEnv(
  env: Record<string, string | undefined>,
  options: { fetch?: typeof fetch; sleep?: Sleep } = {},
): ModelAdapter {
  const baseUrl = env['OPENAI_BASE_URL']?.trim();
  const model = env['AGENT_MODEL']?.trim();
  if (baseUrl && model) {
    const apiKey = env['OPENAI_API_KEY']?.trim();
    return createOpenAiCompatibleModel({
      baseUrl,
      model,
      ...(apiKey ? { apiKey } : {}),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }
  return createScriptedModel(options.sleep === undefined ? {} : { sleep: options.sleep });
}
