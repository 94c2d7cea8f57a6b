import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelFromEnv } from './create-model-from-env.ts';
import type { ReplayHttpServer } from './test-support/replay-http-server.ts';
import { readChunkFrames, startReplayHttpServer } from './test-support/replay-http-server.ts';

const ECHO = 'x'.repeat(10_000);

/** Streams `/echo` of 10,000 characters through the env's model with a sleep that only records its waits. */
async function echoWaits(env: Record<string, string | undefined>): Promise<{ text: string; waits: number[] }> {
  const waits: number[] = [];
  const model = createModelFromEnv(env, {
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
  let text = '';
  const request = { messages: [{ role: 'user' as const, content: `/echo ${ECHO}` }], tools: [] };
  for await (const chunk of model.stream(request, new AbortController().signal)) {
    if (chunk.type === 'text') text += chunk.delta;
  }
  return { text, waits };
}

const total = (waits: number[]): number => waits.reduce((sum, ms) => sum + ms, 0);

describe('createModelFromEnv: AGENT_SCRIPTED_DELAY_MS', () => {
  it('keeps the default pacing of 4 characters per 25 ms: a 10,000-character /echo waits 62.5 s', async () => {
    const { text, waits } = await echoWaits({});
    expect([text === ECHO, waits.length, new Set(waits), total(waits)]).toEqual([true, 2500, new Set([25]), 62_500]);
  });

  it('streams the same /echo with 1 ms per delta when set to 1: 2.5 s in all, 25 times faster', async () => {
    const { text, waits } = await echoWaits({ AGENT_SCRIPTED_DELAY_MS: '1' });
    expect([text === ECHO, waits.length, new Set(waits), total(waits)]).toEqual([true, 2500, new Set([1]), 2500]);
  });

  it('accepts 0 for no pacing at all', async () => {
    expect(total((await echoWaits({ AGENT_SCRIPTED_DELAY_MS: ' 0 ' })).waits)).toBe(0);
  });

  it.each(['fast', '-5', 'Infinity'])('rejects %s with an error naming the variable', (value) => {
    expect(() => createModelFromEnv({ AGENT_SCRIPTED_DELAY_MS: value })).toThrow(
      `AGENT_SCRIPTED_DELAY_MS must be a number of milliseconds ≥ 0 (got "${value}").`,
    );
  });
});

describe('createModelFromEnv: AGENT_MODEL_PROVIDER', () => {
  let server: ReplayHttpServer;
  beforeEach(async () => {
    server = await startReplayHttpServer();
  });
  afterEach(async () => {
    await server.close();
  });

  /** Streams one answer through the env's model and returns its text. */
  async function answer(env: Record<string, string | undefined>): Promise<string> {
    let text = '';
    const request = { messages: [{ role: 'user' as const, content: 'Hello' }], tools: [] };
    for await (const chunk of createModelFromEnv(env).stream(request, new AbortController().signal)) {
      if (chunk.type === 'text') text += chunk.delta;
    }
    return text;
  }

  it.each([
    {
      env: { AGENT_MODEL_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-test', AGENT_MODEL: 'claude-sonnet-4-5' },
      baseUrl: ['ANTHROPIC_BASE_URL', '/v1'],
      file: 'anthropic-text.chunks.txt',
      path: '/v1/messages',
      key: ['x-api-key', 'sk-ant-test'],
    },
    {
      env: {
        AGENT_MODEL_PROVIDER: 'google',
        GOOGLE_GENERATIVE_AI_API_KEY: 'g-test',
        AGENT_MODEL: 'gemini-3-pro-preview',
      },
      baseUrl: ['GOOGLE_GENERATIVE_AI_BASE_URL', '/v1beta'],
      file: 'google-text.chunks.txt',
      path: '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
      key: ['x-goog-api-key', 'g-test'],
    },
    {
      env: { AGENT_MODEL_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', AGENT_MODEL: 'gpt-5.1' },
      baseUrl: ['OPENAI_BASE_URL', '/v1'],
      file: 'issue-20047-openai-responses.chunks.txt',
      path: '/v1/responses',
      key: ['authorization', 'Bearer sk-test'],
    },
  ])('$env.AGENT_MODEL_PROVIDER answers through its AI SDK package with its key', async (c) => {
    server.reply({ kind: 'sse', frames: readChunkFrames(c.file) });
    const [variable = '', suffix = ''] = c.baseUrl;
    const text = await answer({ ...c.env, [variable]: `${server.origin}${suffix}` });
    expect(text.length > 0).toBe(true);
    expect(server.requests.map((r) => [r.path, r.headers[c.key[0] ?? '']])).toEqual([[c.path, c.key[1]]]);
  });

  it('openai-compatible picks the native Chat Completions adapter', async () => {
    server.reply({ kind: 'http', status: 400, body: '{}' });
    const model = createModelFromEnv({
      AGENT_MODEL_PROVIDER: 'openai-compatible',
      OPENAI_BASE_URL: `${server.origin}/v1`,
      AGENT_MODEL: 'local',
    });
    await expect(answerOf(model)).rejects.toThrow('The model service rejected the request.');
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });

  it.each([
    [
      { AGENT_MODEL_PROVIDER: 'anthropic', AGENT_MODEL: 'claude' },
      'AGENT_MODEL_PROVIDER=anthropic needs ANTHROPIC_API_KEY.',
    ],
    [
      { AGENT_MODEL_PROVIDER: 'google', GOOGLE_GENERATIVE_AI_API_KEY: 'k' },
      'AGENT_MODEL_PROVIDER=google needs AGENT_MODEL',
    ],
    [
      { AGENT_MODEL_PROVIDER: 'openai-compatible' },
      'AGENT_MODEL_PROVIDER=openai-compatible needs OPENAI_BASE_URL and AGENT_MODEL.',
    ],
    [
      { AGENT_MODEL_PROVIDER: 'bedrock' },
      'AGENT_MODEL_PROVIDER must be anthropic, google, openai or openai-compatible (got "bedrock").',
    ],
  ])('rejects %j at start-up with an error naming what is missing', (env, message) => {
    expect(() => createModelFromEnv(env)).toThrow(message);
  });
});

async function answerOf(model: ReturnType<typeof createModelFromEnv>): Promise<void> {
  const request = { messages: [{ role: 'user' as const, content: 'Hello' }], tools: [] };
  for await (const _chunk of model.stream(request, new AbortController().signal));
}
