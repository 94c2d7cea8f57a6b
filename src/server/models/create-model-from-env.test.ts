import { describe, expect, it } from 'vitest';
import { createModelFromEnv } from './create-model-from-env.ts';

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
