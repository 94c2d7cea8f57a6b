import type { Sleep } from '../../core/clock.ts';
import { createAiSdkModelFromEnv, isAiSdkProviderName } from './create-ai-sdk-model-from-env.ts';
import type { ModelAdapter } from './model-adapter.ts';
import { createOpenAiCompatibleModel } from './openai-compatible-model.ts';
import { createScriptedModel } from './scripted-model.ts';

/**
 * Picks the demo's model from the environment. `AGENT_MODEL_PROVIDER=anthropic|google|openai`
 * names an AI SDK provider (`createAiSdkModelFromEnv`: its package, key variable and `AGENT_MODEL`);
 * `openai-compatible`, or no provider with `OPENAI_BASE_URL` and `AGENT_MODEL` set, the native
 * OpenAI-compatible adapter (`OPENAI_API_KEY` optional, e.g. for Ollama); nothing, the offline
 * scripted model, paced by `AGENT_SCRIPTED_DELAY_MS` (the wait before each delta; default 25,
 * i.e. 4 characters per 25 ms for `/echo`). Throws an error naming the variable when a provider
 * is unknown or lacks a setting, or the delay is not a number of milliseconds ≥ 0.
 */
export function createModelFromEnv(
  env: Record<string, string | undefined>,
  options: { fetch?: typeof fetch; sleep?: Sleep } = {},
): ModelAdapter {
  const provider = env['AGENT_MODEL_PROVIDER']?.trim() ?? '';
  if (isAiSdkProviderName(provider)) return createAiSdkModelFromEnv(provider, env);
  if (provider !== '' && provider !== 'openai-compatible') {
    throw new Error(`AGENT_MODEL_PROVIDER must be anthropic, google, openai or openai-compatible (got "${provider}").`);
  }
  const baseUrl = env['OPENAI_BASE_URL']?.trim();
  const model = providerModelFromEnv(env);
  if (provider === 'openai-compatible' && !(baseUrl && model)) {
    throw new Error('AGENT_MODEL_PROVIDER=openai-compatible needs OPENAI_BASE_URL and AGENT_MODEL.');
  }
  if (baseUrl && model) {
    const apiKey = env['OPENAI_API_KEY']?.trim();
    return createOpenAiCompatibleModel({
      baseUrl,
      model,
      ...(apiKey ? { apiKey } : {}),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }
  const delayMs = readDelayMs(env['AGENT_SCRIPTED_DELAY_MS']);
  return createScriptedModel({
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    ...(delayMs === undefined ? {} : { delayMs }),
  });
}

/**
 * The model name a provider serves when the environment configures one (`AGENT_MODEL` beside
 * `AGENT_MODEL_PROVIDER` or `OPENAI_BASE_URL`), as {@link createModelFromEnv} decides it; undefined
 * when the offline scripted model answers.
 */
export function providerModelFromEnv(env: Record<string, string | undefined>): string | undefined {
  const model = env['AGENT_MODEL']?.trim();
  const isConfigured = Boolean(env['AGENT_MODEL_PROVIDER']?.trim() || env['OPENAI_BASE_URL']?.trim());
  return isConfigured && model ? model : undefined;
}

function readDelayMs(value: string | undefined): number | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  const delayMs = Number(text);
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new Error(`AGENT_SCRIPTED_DELAY_MS must be a number of milliseconds ≥ 0 (got "${text}").`);
  }
  return delayMs;
}
