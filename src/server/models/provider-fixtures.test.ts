import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelChunk } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';
import { createOpenAiCompatibleModel } from './openai-compatible-model.ts';
import type { FakeOpenAiServer } from './test-support/fake-openai-server.ts';
import { startFakeOpenAiServer } from './test-support/fake-openai-server.ts';
import type { FixtureExpectation } from './test-support/provider-fixtures.ts';
import {
  computeExpectation,
  expectedFinishReason,
  findProviderFixture,
  loadProviderFixtures,
} from './test-support/provider-fixtures.ts';
import { replayProviderFixture } from './test-support/replay-provider-fixture.ts';

const fixtures = loadProviderFixtures();
const FOLLOW_UP = findProviderFixture('azure-text');
const cases = fixtures.map((fixture) => ({
  name: fixture.name,
  fixture,
  expected: computeExpectation(fixture.payloads),
}));

/** What the adapter yielded, folded the way a correct consumer folds it. */
function foldChunks(chunks: readonly ModelChunk[]): Omit<FixtureExpectation, 'error' | 'usage' | 'refused'> & {
  usage: FixtureExpectation['usage'];
  emptyIds: number;
} {
  const calls: FixtureExpectation['toolCalls'] = [];
  let emptyIds = 0;
  const folded = {
    text: '',
    reasoning: '',
    usage: null as FixtureExpectation['usage'],
    finishReason: null as string | null,
  };
  for (const chunk of chunks) {
    if (chunk.type === 'text') folded.text += chunk.delta;
    if (chunk.type === 'reasoning') folded.reasoning += chunk.delta;
    if (chunk.type === 'finish') folded.finishReason = chunk.reason;
    if (chunk.type === 'usage') {
      const { inputTokens, outputTokens, reasoningTokens } = chunk.usage;
      folded.usage = { inputTokens, outputTokens, ...(reasoningTokens === undefined ? {} : { reasoningTokens }) };
    }
    // fromAiSdk hands over each call whole, in the provider's index order.
    if (chunk.type === 'tool_call') {
      if (chunk.id === '') emptyIds += 1;
      calls.push({ index: calls.length, id: chunk.id, name: chunk.name, arguments: chunk.arguments });
    }
  }
  return { ...folded, toolCalls: calls, emptyIds };
}

describe('the expectation computed from a fixture', () => {
  it('takes the last of a running usage total and the first non-empty tool call id', () => {
    expect(computeExpectation(findProviderFixture('perplexity-text').payloads).usage).toEqual({
      inputTokens: 11,
      outputTokens: 434,
    });
    expect(computeExpectation(findProviderFixture('qwen-tool-call').payloads).toolCalls).toEqual([
      { index: 0, id: 'call_eee11723464a4b9eb8cee71d', name: 'weather', arguments: '{"location": "San Francisco"}' },
    ]);
  });

  it('covers every provider the issue names', () => {
    expect(fixtures.map((fixture) => fixture.name)).toEqual([
      'azure-text',
      'deepseek-reasoning-length',
      'deepseek-tool-call',
      'groq-tool-call',
      'openai-length',
      'openai-refusal',
      'openai-server-error',
      'openai-text',
      'openai-tool-calls',
      'perplexity-text',
      'qwen-tool-call',
      'xai-tool-call',
    ]);
  });
});

describe('recorded provider streams through createOpenAiCompatibleModel (@ai-sdk/openai-compatible and fromAiSdk)', () => {
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await startFakeOpenAiServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it.each(cases.filter((c) => c.expected.error === null))('$name', async ({ fixture, expected }) => {
    server.reply({ kind: 'stream', pieces: fixture.frames });
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'replay', now: () => 0 });
    const chunks: ModelChunk[] = [];
    for await (const chunk of model.stream({ messages: [], tools: [] }, new AbortController().signal)) {
      chunks.push(chunk);
    }
    const { error: _error, refused: _refused, ...rest } = expected;
    expect(foldChunks(chunks)).toEqual({ ...rest, finishReason: expectedFinishReason(expected), emptyIds: 0 });
  });

  it.each(cases.filter((c) => c.expected.error !== null))('$name fails retryably', async ({ fixture }) => {
    server.reply({ kind: 'stream', pieces: fixture.frames });
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'replay', now: () => 0 });
    let failure: unknown;
    try {
      for await (const _chunk of model.stream({ messages: [], tools: [] }, new AbortController().signal));
    } catch (error) {
      failure = error;
    }
    // OpenAI's `server_error` object: a fault on its side, worth another try.
    expect(failure instanceof ModelError && [failure.retryable, failure.message]).toEqual([
      true,
      'The model service had a temporary problem.',
    ]);
  });
});

describe('recorded provider streams through the run engine over HTTP', () => {
  const followUp = computeExpectation(FOLLOW_UP.payloads);

  it.each(cases)('$name', async ({ fixture, expected }) => {
    const replay = await replayProviderFixture(fixture, FOLLOW_UP);
    const hasTools = expected.toolCalls.length > 0;
    if (expected.error !== null) {
      // A stream that ends in an error is retried; the retry's answer is the one shown.
      expect([replay.errorCode, replay.answer, replay.requestCount]).toEqual([undefined, followUp.text, 2]);
      expect([replay.usage?.inputTokens, replay.usage?.outputTokens]).toEqual([
        followUp.usage?.inputTokens,
        followUp.usage?.outputTokens,
      ]);
      return;
    }
    expect(replay.answer).toBe(
      expected.text === '' && (hasTools || expected.finishReason !== 'length') ? undefined : expected.text,
    );
    if (!hasTools) expect(replay.answerFinishReason).toBe(expectedFinishReason(expected));
    expect(replay.reasoning).toBe(expected.reasoning === '' ? undefined : expected.reasoning);
    expect(replay.toolCalls).toEqual(
      expected.toolCalls.map((call) => ({ name: call.name, args: JSON.parse(call.arguments) as unknown })),
    );
    expect(replay.sentToolCalls).toEqual(
      expected.toolCalls.map((call) => ({ id: call.id, arguments: call.arguments })),
    );
    const usages = hasTools ? [expected.usage, followUp.usage] : [expected.usage];
    const sum = (key: 'inputTokens' | 'outputTokens') =>
      usages.reduce((total, usage) => total + (usage?.[key] ?? 0), 0);
    expect([replay.usage?.inputTokens, replay.usage?.outputTokens]).toEqual([sum('inputTokens'), sum('outputTokens')]);
  });
});
