import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataOf, startEngine } from '../agent-loop/test-support/run-engine-harness.ts';
import type { ModelPrice } from '../agent-loop/engine-options.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import type { AiSdkLanguageModel } from './ai-sdk-model.ts';
import { fromAiSdk } from './ai-sdk-model.ts';
import type { ReplayHttpServer, ReplayReply } from './test-support/replay-http-server.ts';
import {
  readChunkFrames,
  readChunkPayloads,
  readRecording,
  startReplayHttpServer,
} from './test-support/replay-http-server.ts';

// Each provider package, as a product would create it, pointed at the local replay server.
const PROVIDERS = {
  anthropic: (origin: string): AiSdkLanguageModel =>
    createAnthropic({ baseURL: `${origin}/v1`, apiKey: 'test-key' })('claude-sonnet-4-5'),
  google: (origin: string): AiSdkLanguageModel =>
    createGoogleGenerativeAI({ baseURL: `${origin}/v1beta`, apiKey: 'test-key' })('gemini-3-pro-preview'),
  openai: (origin: string): AiSdkLanguageModel =>
    createOpenAI({ baseURL: `${origin}/v1`, apiKey: 'test-key' }).responses('gpt-5.1'),
};
type Provider = keyof typeof PROVIDERS;

const PRICE: ModelPrice = { inputPerMillionUsd: '3', outputPerMillionUsd: '15', cachedInputPerMillionUsd: '0.3' };

const sse = (name: string): ReplayReply => ({ kind: 'sse', frames: readChunkFrames(name) });
const recordedError = (name: string, status: number): ReplayReply => ({
  kind: 'http',
  status,
  body: readRecording(name),
});

/** What a recording says, read from its own lines: the text, reasoning and tool calls the provider sent. */
function readExpected(provider: Provider, name: string): { text: string; reasoning: string; calls: unknown[] } {
  const payloads = readChunkPayloads(name);
  const record = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (provider === 'anthropic') {
    const deltas = payloads.map((p) => record(p['delta']));
    const starts = payloads.map((p) => record(p['content_block'])).filter((b) => b['type'] === 'tool_use');
    const json = deltas.filter((d) => d['type'] === 'input_json_delta').map((d) => String(d['partial_json']));
    return {
      text: deltas
        .filter((d) => d['type'] === 'text_delta')
        .map((d) => String(d['text']))
        .join(''),
      reasoning: deltas
        .filter((d) => d['type'] === 'thinking_delta')
        .map((d) => String(d['thinking']))
        .join(''),
      calls: starts.map((b) => ({ name: b['name'], args: JSON.parse(json.join('')) as unknown })),
    };
  }
  if (provider === 'google') {
    const parts = payloads.flatMap((p) => {
      const candidate = record((p['candidates'] as unknown[] | undefined)?.[0]);
      return (record(candidate['content'])['parts'] as Record<string, unknown>[] | undefined) ?? [];
    });
    return {
      text: parts
        .map((part) => (typeof part['text'] === 'string' && part['thought'] !== true ? part['text'] : ''))
        .join(''),
      reasoning: parts.map((part) => (part['thought'] === true ? String(part['text']) : '')).join(''),
      calls: parts
        .filter((part) => part['functionCall'] !== undefined)
        .map((part) => ({ name: record(part['functionCall'])['name'], args: record(part['functionCall'])['args'] })),
    };
  }
  return {
    text: payloads
      .filter((p) => p['type'] === 'response.output_text.delta')
      .map((p) => String(p['delta']))
      .join(''),
    reasoning: payloads
      .filter((p) => p['type'] === 'response.reasoning_summary_text.delta')
      .map((p) => String(p['delta']))
      .join(''),
    calls: payloads
      .filter((p) => p['type'] === 'response.function_call_arguments.done')
      .map((p) => {
        const added = payloads.find(
          (q) => q['type'] === 'response.output_item.added' && record(q['item'])['id'] === p['item_id'],
        );
        return { name: record(added?.['item'])['name'], args: JSON.parse(String(p['arguments'])) as unknown };
      }),
  };
}

/** The provider's own usage numbers in a recording: its last usage object. */
function readUsage(provider: Provider, name: string): { input: number; output: number; reasoning: number } {
  const payloads = readChunkPayloads(name);
  if (provider === 'anthropic') {
    const start = payloads.find((p) => p['type'] === 'message_start') as { message: { usage: Record<string, number> } };
    const end = payloads.find((p) => p['type'] === 'message_delta') as {
      usage: Record<string, number> & { output_tokens_details?: { thinking_tokens?: number } };
    };
    const input = (key: string) => end.usage[key] ?? start.message.usage[key] ?? 0;
    return {
      input: input('input_tokens') + input('cache_read_input_tokens') + input('cache_creation_input_tokens'),
      output: end.usage['output_tokens'] ?? 0,
      reasoning: end.usage.output_tokens_details?.thinking_tokens ?? 0,
    };
  }
  if (provider === 'google') {
    const last = payloads.at(-1) as { usageMetadata: Record<string, number> };
    const meta = last.usageMetadata;
    return {
      input: meta['promptTokenCount'] ?? 0,
      output: (meta['candidatesTokenCount'] ?? 0) + (meta['thoughtsTokenCount'] ?? 0),
      reasoning: meta['thoughtsTokenCount'] ?? 0,
    };
  }
  const done = payloads.find((p) => p['type'] === 'response.completed') as {
    response: { usage: Record<string, number> & { output_tokens_details: { reasoning_tokens: number } } };
  };
  const { usage } = done.response;
  return {
    input: usage['input_tokens'] ?? 0,
    output: usage['output_tokens'] ?? 0,
    reasoning: usage.output_tokens_details.reasoning_tokens,
  };
}

/** A product tool for the recorded call: it records what it ran with. */
function recordedTool(name: string): ToolDefinition & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    name,
    description: `The recorded ${name} tool.`,
    parameters: { type: 'object' },
    policy: 'allow',
    calls,
    run: (args) => {
      calls.push(args);
      return Promise.resolve({ forecast: 'sunny', celsius: 21 });
    },
  };
}

const CASES: {
  provider: Provider;
  text: string;
  tool: { file: string; name: string };
  error: { reply: ReplayReply; retryable: boolean };
}[] = [
  {
    provider: 'anthropic',
    text: 'anthropic-text.chunks.txt',
    tool: { file: 'anthropic-json-other-tool.1.chunks.txt', name: 'weather' },
    error: { reply: recordedError('anthropic-issue-17366-error.json', 400), retryable: false },
  },
  {
    provider: 'google',
    text: 'google-text.chunks.txt',
    tool: { file: 'google-tool-call.chunks.txt', name: 'weather' },
    error: { reply: recordedError('google-429-retry-info.json', 429), retryable: true },
  },
  {
    provider: 'openai',
    text: 'issue-20047-openai-responses.chunks.txt',
    tool: { file: 'issue-19493-gpt-5.1-tool-call.chunks.txt', name: 'get_weather' },
    error: { reply: sse('openai-error.1.chunks.txt'), retryable: false },
  },
];

describe.each(CASES)('fromAiSdk with @ai-sdk/$provider over its recorded streams', (c) => {
  let server: ReplayHttpServer;
  beforeEach(async () => {
    server = await startReplayHttpServer();
  });
  afterEach(async () => {
    await server.close();
  });
  const engineWith = (text: string, extra: Parameters<typeof startEngine>[1] = {}) => {
    const model = fromAiSdk(PROVIDERS[c.provider](server.origin), { id: 'priced', now: () => 0 });
    return startEngine(text, { model, tools: [], prices: { priced: PRICE }, ...extra });
  };

  it('streams the recorded text into one answer with its usage and cost', async () => {
    server.reply(sse(c.text));
    const run = engineWith('Hello');
    await run.done;
    const expected = readExpected(c.provider, c.text);
    const snapshot = run.handle.snapshot();
    expect(snapshot.status).toBe('completed');
    expect(snapshot.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([expected.text]);
    const usage = readUsage(c.provider, c.text);
    const [finished] = dataOf(run.events(), 'RUN_FINISHED');
    expect([finished?.usage?.[0]?.inputTokens, finished?.usage?.[0]?.outputTokens]).toEqual([
      usage.input,
      usage.output,
    ]);
    const picodollars = BigInt(usage.input) * 3_000_000_000_000n + BigInt(usage.output) * 15_000_000_000_000n;
    expect(finished?.costUsd).toBe(formatPicodollars((picodollars + 999_999n) / 1_000_000n));
    expect(dataOf(run.events(), 'TEXT_MESSAGE_END').map((end) => end.finishReason)).toEqual(['stop']);
  });

  it('runs the recorded tool call through the loop and sends its result back in the provider format', async () => {
    server.reply(sse(c.tool.file), sse(c.text));
    const tool = recordedTool(c.tool.name);
    const run = engineWith('What is the weather?', { tools: [tool] });
    await run.done;
    const [call] = readExpected(c.provider, c.tool.file).calls as { name: string; args: unknown }[];
    expect(tool.calls).toEqual([call?.args]);
    expect(dataOf(run.events(), 'TOOL_CALL_START').map((start) => start.toolCallName)).toEqual([c.tool.name]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((result) => result.status)).toEqual(['completed']);
    expect(server.requests).toHaveLength(2);
    const sent = JSON.stringify(server.requests[1]?.body);
    expect(sent).toContain('sunny');
    expect(sent).toContain(c.tool.name);
    const first = readUsage(c.provider, c.tool.file);
    const second = readUsage(c.provider, c.text);
    const usage = dataOf(run.events(), 'RUN_FINISHED')[0]?.usage?.[0];
    expect([usage?.inputTokens, usage?.outputTokens]).toEqual([
      first.input + second.input,
      first.output + second.output,
    ]);
    expect(run.handle.snapshot().messages.at(-1)?.content).toBe(readExpected(c.provider, c.text).text);
  });

  it(`maps the recorded error to a ${c.error.retryable ? 'retried' : 'final'} model error`, async () => {
    server.reply(c.error.reply, sse(c.text));
    const run = engineWith('Hello', { limits: { maxRetries: 1 } });
    await run.done;
    if (c.error.retryable) {
      expect(server.requests).toHaveLength(2);
      expect(run.handle.snapshot().messages.at(-1)?.content).toBe(readExpected(c.provider, c.text).text);
      expect(run.logs.some((entry) => entry.message.startsWith('model attempt 1 failed: MODEL_ERROR'))).toBe(true);
    } else {
      expect(server.requests).toHaveLength(1);
      const [error] = dataOf(run.events(), 'RUN_ERROR');
      expect([error?.code, error?.retryable]).toEqual(['MODEL_ERROR', false]);
      // The provider's own words stay in the server log, never in the event the browser reads.
      expect(JSON.stringify(run.events())).not.toMatch(/quota|tool_use_id/);
      expect(JSON.stringify(run.logs)).toMatch(/quota|tool_use_id/);
    }
  });

  it('stops the provider request when the run is cancelled mid-stream', async () => {
    const frames = readChunkFrames(c.text);
    server.reply({ kind: 'sse', frames: frames.slice(0, 1), hold: true });
    const run = engineWith('Hello');
    await server.received(1);
    await run.cancel('user');
    await server.closedByClient();
    await run.done;
    expect(run.handle.snapshot().outcome).toMatchObject({ type: 'cancelled' });
  });

  it("sends the run's reasoning effort as the provider's documented options", async () => {
    server.reply(sse(c.text));
    const run = engineWith('Hello', { options: { reasoningEffort: 'high' } });
    await run.done;
    const body = server.requests[0]?.body ?? {};
    const expected = {
      anthropic: { thinking: { type: 'enabled', budget_tokens: 16_384 } },
      google: { generationConfig: { thinkingConfig: { thinkingBudget: 16_384, includeThoughts: true } } },
      openai: { reasoning: { effort: 'high', summary: 'auto' } },
    }[c.provider];
    expect(body).toMatchObject(expected);
  });
});

describe('fromAiSdk with @ai-sdk/anthropic over its recorded thinking stream', () => {
  it('streams the thinking as reasoning before the answer, with its thinking tokens', async () => {
    const server = await startReplayHttpServer();
    try {
      const file = 'anthropic-claude-sonnet-5-reasoning-summarized.chunks.txt';
      server.reply(sse(file));
      const run = startEngine('What is the GCD of 1071 and 462?', {
        model: fromAiSdk(PROVIDERS.anthropic(server.origin)),
        tools: [],
      });
      await run.done;
      const expected = readExpected('anthropic', file);
      const messages = run.handle.snapshot().messages.filter((m) => m.role !== 'user');
      expect(messages.map((m) => [m.role, m.content])).toEqual([
        ['reasoning', expected.reasoning],
        ['assistant', expected.text],
      ]);
      const usage = dataOf(run.events(), 'RUN_FINISHED')[0]?.usage?.[0];
      expect([usage?.modelId, usage?.reasoningTokens]).toEqual([
        'claude-sonnet-5',
        readUsage('anthropic', file).reasoning,
      ]);
    } finally {
      await server.close();
    }
  });
});

function formatPicodollars(picodollars: bigint): string {
  return `${picodollars / 1_000_000_000_000n}.${(picodollars % 1_000_000_000_000n).toString().padStart(12, '0')}`;
}
