import { describe, expect, it } from 'vitest';
import { REASONING_EFFORTS } from '../src/core/protocol.ts';
import { createEngineFromEnv } from './engine-from-env.ts';
import { readModelsFromEnv } from './models-from-env.ts';

/** What `npm start` lists for `env`: its engine's models as `readModelsFromEnv` publishes them. */
const modelsOf = (env: Record<string, string | undefined>) => readModelsFromEnv(env, createEngineFromEnv(env));

describe('readModelsFromEnv', () => {
  it("lists the engine's real model by its own id, reading images only when AGENT_MODEL_IMAGE_INPUT=true", () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', AGENT_MODEL: 'qwen2.5-vl' };
    expect(modelsOf(env)).toEqual([
      {
        modelId: 'qwen2.5-vl',
        label: 'qwen2.5-vl',
        default: true,
        available: true,
        reasoningOptions: [],
        imageInput: false,
      },
    ]);
    expect(modelsOf({ ...env, AGENT_MODEL_IMAGE_INPUT: 'true' })?.[0]?.imageInput).toBe(true);
  });

  it('names an AI SDK provider model by its id, with its provider in the label and its efforts', () => {
    const env = {
      AGENT_MODEL_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      AGENT_MODEL: 'claude-sonnet-4-5',
    };
    expect(modelsOf(env)).toEqual([
      {
        modelId: 'claude-sonnet-4-5',
        label: 'claude-sonnet-4-5 (anthropic.messages)',
        default: true,
        available: true,
        reasoningOptions: [...REASONING_EFFORTS],
        imageInput: false,
      },
    ]);
  });

  it("leaves the handler the engine's own models for the scripted model and a remote AG-UI agent", () => {
    expect(modelsOf({})).toBeUndefined();
    expect(modelsOf({ AGENT_MODEL: 'gpt-4o-mini' })).toBeUndefined();
    expect(
      modelsOf({ OPENAI_BASE_URL: 'http://x/v1', AGENT_MODEL: 'm', AGUI_AGENT_URL: 'http://127.0.0.1:8000/agent' }),
    ).toBeUndefined();
  });

  it('refuses a value of AGENT_MODEL_IMAGE_INPUT other than true or false, naming it', () => {
    expect(() => modelsOf({ AGENT_MODEL_IMAGE_INPUT: 'yes' })).toThrow(
      new RangeError('AGENT_MODEL_IMAGE_INPUT must be true or false (got "yes").'),
    );
  });
});
