import { describe, expect, it } from 'vitest';
import { readModelsFromEnv } from './models-from-env.ts';

describe('readModelsFromEnv', () => {
  it('lists the real model, reading images only when AGENT_MODEL_IMAGE_INPUT=true', () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', AGENT_MODEL: 'qwen2.5-vl' };
    expect(readModelsFromEnv(env)).toEqual([
      { modelId: 'qwen2.5-vl', label: 'qwen2.5-vl', default: true, available: true, imageInput: false },
    ]);
    expect(readModelsFromEnv({ ...env, AGENT_MODEL_IMAGE_INPUT: 'true' })?.[0]?.imageInput).toBe(true);
    expect(
      readModelsFromEnv({ AGENT_MODEL_PROVIDER: 'anthropic', AGENT_MODEL: 'claude-sonnet-4-5' })?.[0]?.modelId,
    ).toBe('claude-sonnet-4-5');
  });

  it('leaves the handler its defaults for the scripted model and a remote AG-UI agent', () => {
    expect(readModelsFromEnv({})).toBeUndefined();
    expect(readModelsFromEnv({ AGENT_MODEL: 'gpt-4o-mini' })).toBeUndefined();
    expect(
      readModelsFromEnv({
        OPENAI_BASE_URL: 'http://x/v1',
        AGENT_MODEL: 'm',
        AGUI_AGENT_URL: 'http://127.0.0.1:8000/agent',
      }),
    ).toBeUndefined();
  });

  it('refuses a value of AGENT_MODEL_IMAGE_INPUT other than true or false, naming it', () => {
    expect(() => readModelsFromEnv({ AGENT_MODEL_IMAGE_INPUT: 'yes' })).toThrow(
      new RangeError('AGENT_MODEL_IMAGE_INPUT must be true or false (got "yes").'),
    );
  });
});
