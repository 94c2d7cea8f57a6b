import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunEngine } from '../agent-loop/create-run-engine.ts';
import { DEFAULT_KERNEL_PROMPT } from '../agent-loop/engine-settings.ts';
import { dataOf, startEngine } from '../agent-loop/test-support/run-engine-harness.ts';
import { startTestServer } from '../test-support/start-test-server.ts';
import { createModelFromEnv } from './create-model-from-env.ts';
import type { ModelChunk, ModelRequest } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';
import { createOpenAiCompatibleModel } from './openai-compatible-model.ts';
import type { FakeOpenAiServer } from './test-support/fake-openai-server.ts';
import { sseChunk, startFakeOpenAiServer } from './test-support/fake-openai-server.ts';

const delta = (value: Record<string, unknown>, finish: string | null = null): string =>
  sseChunk({
    id: 'c1',
    object: 'chat.completion.chunk',
    model: 'm-test',
    choices: [{ index: 0, delta: value, finish_reason: finish }],
  });
const usage = sseChunk({
  id: 'c1',
  object: 'chat.completion.chunk',
  model: 'm-test',
  choices: [],
  usage: { prompt_tokens: 12, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 2 } },
});
const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
  tools: [{ name: 'orders.lookup', description: 'Looks up an order', parameters: { type: 'object' } }],
};

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failureOf(stream: AsyncIterable<ModelChunk>): Promise<ModelError> {
  try {
    await collect(stream);
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('expected a ModelError');
}

describe('createOpenAiCompatibleModel against a local fake provider', () => {
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await startFakeOpenAiServer();
  });
  afterEach(async () => {
    await server.close();
  });
  const model = (): ReturnType<typeof createOpenAiCompatibleModel> =>
    createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm-test', apiKey: 'sk-test', now: () => 0 });

  it('streams reasoning, text split inside a UTF-8 character, usage and the finish reason', async () => {
    const frame = Buffer.from(delta({ content: 'héllo 👋' }));
    const cut = frame.indexOf(Buffer.from('👋')) + 2;
    server.reply({
      kind: 'stream',
      pieces: [
        delta({ role: 'assistant', reasoning_content: 'thinking' }),
        frame.subarray(0, cut),
        frame.subarray(cut),
        delta({}, 'stop'),
        usage,
        'data: [DONE]\n\n',
      ],
    });
    const chunks = await collect(model().stream(request, new AbortController().signal));
    expect(chunks).toEqual([
      { type: 'reasoning', delta: 'thinking' },
      { type: 'text', delta: 'héllo 👋' },
      { type: 'usage', usage: { modelId: 'm-test', inputTokens: 12, outputTokens: 5, reasoningTokens: 2 } },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(server.requests[0]).toEqual({
      authorization: 'Bearer sk-test',
      body: {
        model: 'm-test',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        stream: true,
        stream_options: { include_usage: true },
        tools: [
          {
            type: 'function',
            function: { name: 'orders_lookup', description: 'Looks up an order', parameters: { type: 'object' } },
          },
        ],
        tool_choice: 'auto',
      },
    });
  });

  it('sends maxOutputTokens as max_tokens, or as max_completion_tokens when told to', async () => {
    server.reply({ kind: 'stream', pieces: [delta({ content: 'Hi.' }, 'stop'), 'data: [DONE]\n\n'] });
    const limited = { ...request, tools: [], maxOutputTokens: 50 };
    const completion = createOpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'm-test',
      maxTokensField: 'max_completion_tokens',
    });
    await collect(model().stream(limited, new AbortController().signal));
    await collect(completion.stream(limited, new AbortController().signal));
    const fields = server.requests.map(({ body }) => [body['max_tokens'], body['max_completion_tokens']]);
    expect(fields).toEqual([
      [50, undefined],
      [undefined, 50],
    ]);
  });

  it('assembles tool-call argument fragments into one call and decodes the tool name', async () => {
    server.reply({
      kind: 'stream',
      pieces: [
        delta({
          tool_calls: [
            { index: 0, id: 'call_9', type: 'function', function: { name: 'orders_lookup', arguments: '' } },
          ],
        }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '{"orderId":' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '"A-7"}' } }] }),
        delta({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ],
    });
    const chunks = await collect(model().stream(request, new AbortController().signal));
    expect(chunks).toEqual([
      { type: 'tool_call', id: 'call_9', name: 'orders.lookup', arguments: '{"orderId":"A-7"}' },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('maps a 429 with Retry-After to a retryable error without the provider text in its message', async () => {
    server.reply({
      kind: 'http',
      status: 429,
      headers: { 'retry-after': '3' },
      body: '{"error":{"message":"Rate limit for org-secret"}}',
    });
    const error = await failureOf(model().stream(request, new AbortController().signal));
    expect([error.code, error.retryable, error.status, error.retryAfterMs, error.message]).toEqual([
      'MODEL_ERROR',
      true,
      429,
      3000,
      'The model service is busy (rate limited).',
    ]);
    expect(error.providerMessage).toContain('{"error":{"message":"Rate limit for org-secret"}}');
  });

  it('maps 5xx to retryable and other 4xx to fatal', async () => {
    server.reply(
      { kind: 'http', status: 503, body: 'upstream down' },
      { kind: 'http', status: 401, body: 'bad key sk-test' },
    );
    const busy = await failureOf(model().stream(request, new AbortController().signal));
    const fatal = await failureOf(model().stream(request, new AbortController().signal));
    expect([busy.retryable, busy.status, busy.message]).toEqual([
      true,
      503,
      'The model service had a temporary problem.',
    ]);
    expect([fatal.retryable, fatal.status, fatal.message]).toEqual([
      false,
      401,
      'The model service rejected the request.',
    ]);
  });

  it('treats a stream cut mid-answer as a retryable failure', async () => {
    server.reply({ kind: 'stream', pieces: [delta({ content: 'Half an ans' })], cut: true });
    const chunks: ModelChunk[] = [];
    let failure: unknown;
    try {
      for await (const chunk of model().stream(request, new AbortController().signal)) chunks.push(chunk);
    } catch (error) {
      failure = error;
    }
    expect(chunks).toEqual([{ type: 'text', delta: 'Half an ans' }]);
    expect(failure instanceof ModelError && [failure.retryable, failure.message]).toEqual([
      true,
      'The connection to the model service broke.',
    ]);
  });

  it('drives the agent loop: a tool round trip, a retried disconnect, and the final answer', async () => {
    server.reply(
      {
        kind: 'stream',
        pieces: [
          delta({
            tool_calls: [
              { index: 0, id: 'call_1', function: { name: 'orders_lookup', arguments: '{"orderId":"A-1"}' } },
            ],
          }),
          delta({}, 'tool_calls'),
          'data: [DONE]\n\n',
        ],
      },
      { kind: 'stream', pieces: [delta({ content: 'Your order ' })], cut: true },
      {
        kind: 'stream',
        pieces: [delta({ content: 'Your order is on its way.' }), delta({}, 'stop'), usage, 'data: [DONE]\n\n'],
      },
    );
    const run = startEngine('Where is A-1?', {
      model: createModelFromEnv({ OPENAI_BASE_URL: server.baseUrl, AGENT_MODEL: 'm-test' }),
    });
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_END').map((d) => d.args)).toEqual([{ orderId: 'A-1' }]);
    expect(dataOf(run.events(), 'MESSAGE_DISCARDED').length).toBe(1);
    expect(run.handle.snapshot().messages.at(-1)?.content).toBe('Your order is on its way.');
    expect(server.requests[1]?.body['messages']).toEqual([
      expect.objectContaining({ role: 'system' }),
      { role: 'user', content: 'Where is A-1?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'orders_lookup', arguments: '{"orderId":"A-1"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('"orderId":"A-1"') },
    ]);
    expect(server.requests[0]?.authorization).toBe(undefined);
  });

  it('sends reasoning_effort only when the model declares that effort (reasoningOptions)', async () => {
    server.reply({ kind: 'stream', pieces: [delta({ content: 'Hi.' }, 'stop'), 'data: [DONE]\n\n'] });
    const bodyWithout = {
      model: 'm-test',
      messages: [
        { role: 'system', content: DEFAULT_KERNEL_PROMPT },
        { role: 'user', content: 'Hello' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    };
    // The handler offers efforts for m-test either way; only the adapter knows what the provider takes.
    const models = [
      {
        modelId: 'm-test',
        label: 'M',
        default: true,
        available: true,
        reasoningOptions: ['low' as const, 'high' as const],
      },
    ];
    for (const reasoningOptions of [undefined, [], ['low' as const, 'high' as const]]) {
      const adapter = createOpenAiCompatibleModel({
        baseUrl: server.baseUrl,
        model: 'm-test',
        ...(reasoningOptions === undefined ? {} : { reasoningOptions }),
      });
      const handler = await startTestServer({
        models,
        engine: createRunEngine({ model: adapter, log: () => undefined }),
      });
      try {
        const { runId } = await handler.createRun('alice', 'Hello', { options: { reasoningEffort: 'high' } });
        await expect
          .poll(async () => ((await (await handler.request(`/runs/${runId}`)).json()) as { status: string }).status)
          .toBe('completed');
      } finally {
        await handler.close();
      }
    }
    expect(server.requests.map((request) => request.body)).toEqual([
      bodyWithout,
      bodyWithout,
      { ...bodyWithout, reasoning_effort: 'high' },
    ]);
  });

  it('falls back to the scripted model without OPENAI_BASE_URL and AGENT_MODEL', () => {
    expect(createModelFromEnv({}).id).toBe('scripted');
    expect(createModelFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).id).toBe('scripted');
  });
});
