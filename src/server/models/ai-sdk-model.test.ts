import { describe, expect, it } from 'vitest';
import { dataOf, startEngine } from '../agent-loop/test-support/run-engine-harness.ts';
import type { AiSdkCallOptions, AiSdkLanguageModel } from './ai-sdk-model.ts';
import { fromAiSdk } from './ai-sdk-model.ts';
import type { ModelChunk } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';

/**
 * A language model of the AI SDK's specification that plays stream parts: what a provider package
 * hands `fromAiSdk`, for the cases no public recording shows (the recorded ones are in
 * ai-sdk-providers.test.ts).
 */
function partsModel(
  parts: unknown[][],
  spec: Pick<AiSdkLanguageModel, 'specificationVersion' | 'provider'> = {
    specificationVersion: 'v3',
    provider: 'anthropic.messages',
  },
): AiSdkLanguageModel & { calls: AiSdkCallOptions[] } {
  const calls: AiSdkCallOptions[] = [];
  return {
    ...spec,
    modelId: 'parts-model',
    calls,
    doStream: (options) => {
      calls.push(options);
      const list = parts[Math.min(calls.length, parts.length) - 1] ?? [];
      return Promise.resolve({
        stream: new ReadableStream<unknown>({
          start(controller) {
            for (const part of list) controller.enqueue(part);
            controller.close();
          },
        }),
      });
    },
  };
}

const finish = (unified: string, usage: unknown = undefined) => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage: usage ?? {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 5, text: 5, reasoning: 0 },
  },
});

async function collect(model: AiSdkLanguageModel, effort?: 'low' | 'high'): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  const request = { messages: [], tools: [], ...(effort === undefined ? {} : { reasoningEffort: effort }) };
  for await (const chunk of fromAiSdk(model).stream(request, new AbortController().signal)) chunks.push(chunk);
  return chunks;
}

describe('fromAiSdk', () => {
  it('prices cache-read input tokens at the cached price', async () => {
    const usage = {
      inputTokens: { total: 2_000_000, noCache: 500_000, cacheRead: 1_500_000, cacheWrite: 0 },
      outputTokens: { total: 1_000_000, text: 1_000_000, reasoning: 0 },
    };
    const model = partsModel([[{ type: 'text-delta', id: 't', delta: 'Hi' }, finish('stop', usage)]]);
    const run = startEngine('Hello', {
      model: fromAiSdk(model),
      tools: [],
      prices: {
        'parts-model': { inputPerMillionUsd: '3', outputPerMillionUsd: '15', cachedInputPerMillionUsd: '0.3' },
      },
    });
    await run.done;
    const [finished] = dataOf(run.events(), 'RUN_FINISHED');
    expect(finished?.usage?.[0]).toMatchObject({ inputTokens: 2_000_000, cachedInputTokens: 1_500_000 });
    // 0.5 M × $3 + 1.5 M × $0.30 + 1 M × $15
    expect(finished?.costUsd).toBe('16.950000000000');
  });

  it("decodes dotted tool names and leaves the provider's own executed tools out", async () => {
    const model = partsModel([
      [
        { type: 'tool-input-start', id: 'srv_1', toolName: 'web_search', providerExecuted: true },
        { type: 'tool-call', toolCallId: 'srv_1', toolName: 'web_search', input: '{}', providerExecuted: true },
        { type: 'tool-input-start', id: 'call_1', toolName: 'orders_lookup' },
        { type: 'tool-input-delta', id: 'call_1', delta: '{"orderId":' },
        { type: 'tool-input-delta', id: 'call_1', delta: '"A-1"}' },
        { type: 'tool-input-end', id: 'call_1' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'orders_lookup', input: '{"orderId":"A-1"}' },
        finish('tool-calls'),
      ],
      [{ type: 'text-delta', id: 't', delta: 'Done.' }, finish('stop')],
    ]);
    const ran: unknown[] = [];
    const run = startEngine('Look it up', {
      model: fromAiSdk(model),
      tools: [
        {
          name: 'orders.lookup',
          description: 'Looks up an order.',
          parameters: { type: 'object' },
          policy: 'allow',
          run: (args) => Promise.resolve(ran.push(args)),
        },
      ],
    });
    await run.done;
    expect(model.calls[0]?.tools?.map((tool) => tool.name)).toEqual(['orders_lookup']);
    expect(ran).toEqual([{ orderId: 'A-1' }]);
    expect(dataOf(run.events(), 'TOOL_CALL_START').map((start) => start.toolCallName)).toEqual(['orders.lookup']);
    const toolMessage = model.calls[1]?.prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.content.map((part) => [part.toolCallId, part.toolName, part.output.type])).toEqual([
      ['call_1', 'orders_lookup', 'text'],
    ]);
  });

  it.each([
    [{ type: 'overloaded_error', message: 'Overloaded' }, true],
    [{ type: 'error', error: { type: 'rate_limit_error' } }, true],
    [{ type: 'insufficient_quota', code: 'insufficient_quota' }, false],
    [{ type: 'invalid_request_error' }, false],
  ])('classifies the error part %j as retryable: %s', async (error, retryable) => {
    const model = partsModel([
      [
        { type: 'text-delta', id: 't', delta: 'Par' },
        { type: 'error', error },
      ],
    ]);
    const failure = await collect(model).catch((thrown: unknown) => thrown);
    expect(failure instanceof ModelError && failure.retryable).toBe(retryable);
    expect(failure instanceof ModelError && failure.message).not.toContain('quota');
  });

  it('fails retryably when the stream ends without a finish part or as interrupted', async () => {
    for (const parts of [[{ type: 'text-delta', id: 't', delta: 'Cut' }], [finish('interrupted')]]) {
      const failure = await collect(partsModel([parts])).catch((thrown: unknown) => thrown);
      expect(failure instanceof ModelError && failure.retryable).toBe(true);
    }
  });

  it("sends a V4 model the run's effort as its own reasoning setting, a V3 one as provider options", async () => {
    const v4 = partsModel([[finish('stop')]], { specificationVersion: 'v4', provider: 'anthropic.messages' });
    await collect(v4, 'low');
    expect([v4.calls[0]?.reasoning, v4.calls[0]?.providerOptions]).toEqual(['low', undefined]);
    const v3 = partsModel([[finish('stop')]], { specificationVersion: 'v3', provider: 'mistral.chat' });
    await collect(v3, 'low');
    expect([v3.calls[0]?.reasoning, v3.calls[0]?.providerOptions]).toEqual([undefined, undefined]);
  });

  it('declares every effort when it can send one, and none for a V3 provider it has no mapping for', () => {
    const declared = (spec: Pick<AiSdkLanguageModel, 'specificationVersion' | 'provider'>, mapped = false) =>
      fromAiSdk(partsModel([], spec), mapped ? { reasoningOptions: () => ({ mistral: {} }) } : {}).reasoningOptions;
    const every = ['low', 'medium', 'high', 'xhigh', 'max'];
    expect(declared({ specificationVersion: 'v4', provider: 'mistral.chat' })).toEqual(every);
    expect(declared({ specificationVersion: 'v3', provider: 'openai.responses' })).toEqual(every);
    expect(declared({ specificationVersion: 'v3', provider: 'mistral.chat' }, true)).toEqual(every);
    expect(declared({ specificationVersion: 'v3', provider: 'mistral.chat' })).toEqual([]);
  });

  it('names the usage after the response model, unless the provider names it blank (Azure)', async () => {
    for (const [name, expected] of [
      ['gpt-4', 'gpt-4'],
      ['', undefined],
    ] as const) {
      const chunks = await collect(partsModel([[{ type: 'response-metadata', modelId: name }, finish('stop')]]));
      const usage = chunks.find((chunk) => chunk.type === 'usage');
      expect(usage?.type === 'usage' && usage.usage.modelId).toBe(expected);
    }
  });

  it('sends earlier tool arguments as the JSON text the model wrote with toolArgumentsAsText, else parsed', async () => {
    const written = '{"city": "Edinburgh" }';
    const request = {
      messages: [
        { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'weather', arguments: written }] },
        { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c2', name: 'weather', arguments: 'not json' }] },
      ],
      tools: [],
    };
    const inputs = [];
    for (const toolArgumentsAsText of [true, false]) {
      const model = partsModel([[finish('stop')]]);
      for await (const _chunk of fromAiSdk(model, { toolArgumentsAsText }).stream(
        request,
        new AbortController().signal,
      ));
      inputs.push(
        model.calls[0]?.prompt.flatMap((message) =>
          message.role === 'assistant'
            ? message.content.map((part) => (part.type === 'tool-call' ? part.input : ''))
            : [],
        ),
      );
    }
    expect(inputs).toEqual([
      [written, {}],
      [{ city: 'Edinburgh' }, {}],
    ]);
  });

  it('refuses a model of a specification it does not speak', () => {
    const old = { ...partsModel([]), specificationVersion: 'v1' } as unknown as AiSdkLanguageModel;
    expect(() => fromAiSdk(old)).toThrow(/LanguageModelV3 or V4.*"v1"/);
  });
});
