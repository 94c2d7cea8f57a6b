import type { AiSdkLanguageModel } from './ai-sdk-model.ts';
import { fromAiSdk } from './ai-sdk-model.ts';
import type { ModelAdapter } from './model-adapter.ts';
import { requireOptionalPeer } from '../optional-peer.ts';

/** The AI SDK providers `AGENT_MODEL_PROVIDER` can name, each with its package and the variables it reads. */
const PROVIDERS = {
  anthropic: {
    packageName: '@ai-sdk/anthropic',
    factory: 'createAnthropic',
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    pick: (provider: ProviderFactoryResult, model: string) => provider(model),
  },
  google: {
    packageName: '@ai-sdk/google',
    factory: 'createGoogleGenerativeAI',
    keyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY',
    baseUrlVariable: 'GOOGLE_GENERATIVE_AI_BASE_URL',
    pick: (provider: ProviderFactoryResult, model: string) => provider(model),
  },
  openai: {
    packageName: '@ai-sdk/openai',
    factory: 'createOpenAI',
    keyVariable: 'OPENAI_API_KEY',
    baseUrlVariable: 'OPENAI_BASE_URL',
    // The Responses API: OpenAI's current one, with reasoning summaries.
    pick: (provider: ProviderFactoryResult, model: string) => provider.responses?.(model) ?? provider(model),
  },
} as const;

/** A provider package's `createX(settings)` result: a model factory (OpenAI's also has `.responses`). */
type ProviderFactoryResult = ((modelId: string) => AiSdkLanguageModel) & {
  responses?: (modelId: string) => AiSdkLanguageModel;
};

/** The names `AGENT_MODEL_PROVIDER` takes for an AI SDK provider. */
export type AiSdkProviderName = keyof typeof PROVIDERS;

/** Whether `name` is an AI SDK provider `createAiSdkModelFromEnv` knows. */
export function isAiSdkProviderName(name: string): name is AiSdkProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

/**
 * Creates the model of `AGENT_MODEL_PROVIDER=anthropic|google|openai` through the AI SDK: loads
 * that provider package (an optional peer, loaded only here), reads its usual key variable
 * (`ANTHROPIC_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`, `OPENAI_API_KEY`) and optional base URL
 * (`ANTHROPIC_BASE_URL`, `GOOGLE_GENERATIVE_AI_BASE_URL`, `OPENAI_BASE_URL`), takes the model
 * name from `AGENT_MODEL` (OpenAI's through the Responses API) and wraps it with `fromAiSdk`.
 * Throws an error naming what is missing: the package, the key or the model.
 */
export function createAiSdkModelFromEnv(
  name: AiSdkProviderName,
  env: Record<string, string | undefined>,
): ModelAdapter {
  const provider = PROVIDERS[name];
  const model = env['AGENT_MODEL']?.trim();
  if (!model) throw new Error(`AGENT_MODEL_PROVIDER=${name} needs AGENT_MODEL, the provider's model name.`);
  const apiKey = env[provider.keyVariable]?.trim();
  if (!apiKey) throw new Error(`AGENT_MODEL_PROVIDER=${name} needs ${provider.keyVariable}.`);
  const baseURL = env[provider.baseUrlVariable]?.trim();
  const loaded = requireOptionalPeer<Record<string, unknown>>(provider.packageName, `AGENT_MODEL_PROVIDER=${name}`);
  const factory = loaded[provider.factory] as (settings: Record<string, string>) => ProviderFactoryResult;
  const instance = factory({ apiKey, ...(baseURL ? { baseURL } : {}) });
  return fromAiSdk(provider.pick(instance, model));
}
