import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A recorded provider stream from `src/server/models/fixtures/` (sources in its README). */
export interface ProviderFixture {
  /** The file name without its extension, e.g. `qwen-tool-call`. */
  name: string;
  /** The stream as the provider sent it on the wire: one `data:` frame per piece, `[DONE]` last. */
  frames: string[];
  /** The JSON payload of every `data:` frame but `[DONE]`, in order. */
  payloads: Record<string, unknown>[];
}

/** One tool call as the fixture streams it: fragments grouped by `index`. */
export interface FixtureToolCall {
  index: number;
  /** The first non-empty `id` of the call's fragments. */
  id: string;
  /** The first non-empty function name. */
  name: string;
  /** Every `arguments` fragment, concatenated. */
  arguments: string;
}

/** What a correct reader of the fixture must end up with, computed from the fixture itself. */
export interface FixtureExpectation {
  /** Every `content` and `refusal` delta, concatenated. */
  text: string;
  /** Every `reasoning_content` (or `reasoning`) delta, concatenated. */
  reasoning: string;
  toolCalls: FixtureToolCall[];
  /** The last usage object of the stream (providers that repeat it send a running total). */
  usage: { inputTokens: number; outputTokens: number; reasoningTokens?: number } | null;
  /** The last `finish_reason` the stream gave, if any. */
  finishReason: string | null;
  /** Whether the answer came as `refusal` deltas (OpenAI's way of declining). */
  refused: boolean;
  /** The stream's `error` object, when it carries one. */
  error: Record<string, unknown> | null;
}

const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * Loads every recorded stream: `*.sse` files are raw wire bodies (split into their frames
 * verbatim); `*.chunks.txt` files hold one chunk per line without the SSE envelope, which is
 * added back as `data: <line>` frames followed by `data: [DONE]` (the Chat Completions end marker).
 */
export function loadProviderFixtures(): ProviderFixture[] {
  return readdirSync(FIXTURES_DIR)
    .filter((file) => file.endsWith('.sse') || file.endsWith('.chunks.txt'))
    .sort()
    .map((file) => {
      const content = readFileSync(`${FIXTURES_DIR}${file}`, 'utf8');
      const frames = file.endsWith('.sse')
        ? content.split(/(?<=\n\n)/)
        : [
            ...content
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => `data: ${line}\n\n`),
            'data: [DONE]\n\n',
          ];
      return { name: file.replace(/\.(sse|chunks\.txt)$/, ''), frames, payloads: frames.flatMap(readPayload) };
    });
}

/** Returns the fixture with this name; throws when there is none. */
export function findProviderFixture(name: string): ProviderFixture {
  const fixture = loadProviderFixtures().find((candidate) => candidate.name === name);
  if (fixture === undefined) throw new Error(`No provider fixture named ${name}`);
  return fixture;
}

/** Computes what the fixture streams: concatenated deltas, tool calls grouped by index, last usage. */
export function computeExpectation(payloads: readonly Record<string, unknown>[]): FixtureExpectation {
  const expectation: FixtureExpectation = {
    text: '',
    reasoning: '',
    toolCalls: [],
    usage: null,
    finishReason: null,
    refused: false,
    error: null,
  };
  const calls = new Map<number, FixtureToolCall>();
  for (const payload of payloads) {
    if (isRecord(payload['error'])) expectation.error = payload['error'];
    const choice: unknown = Array.isArray(payload['choices']) ? payload['choices'][0] : undefined;
    if (isRecord(choice)) {
      const delta = isRecord(choice['delta']) ? choice['delta'] : {};
      expectation.reasoning += textOf(delta['reasoning_content'] ?? delta['reasoning']);
      expectation.text += textOf(delta['content']) + textOf(delta['refusal']);
      if (textOf(delta['refusal']) !== '') expectation.refused = true;
      for (const fragment of Array.isArray(delta['tool_calls']) ? delta['tool_calls'] : []) {
        if (!isRecord(fragment)) continue;
        const index = typeof fragment['index'] === 'number' ? fragment['index'] : 0;
        const call = calls.get(index) ?? { index, id: '', name: '', arguments: '' };
        const fn = isRecord(fragment['function']) ? fragment['function'] : {};
        call.id ||= textOf(fragment['id']);
        call.name ||= textOf(fn['name']);
        call.arguments += textOf(fn['arguments']);
        calls.set(index, call);
      }
      if (typeof choice['finish_reason'] === 'string') expectation.finishReason = choice['finish_reason'];
    }
    const usage = payload['usage'];
    if (isRecord(usage) && typeof usage['prompt_tokens'] === 'number') {
      const details = isRecord(usage['completion_tokens_details']) ? usage['completion_tokens_details'] : {};
      const reasoningTokens = details['reasoning_tokens'];
      expectation.usage = {
        inputTokens: usage['prompt_tokens'],
        outputTokens: typeof usage['completion_tokens'] === 'number' ? usage['completion_tokens'] : 0,
        ...(typeof reasoningTokens === 'number' && reasoningTokens > 0 ? { reasoningTokens } : {}),
      };
    }
  }
  expectation.toolCalls = [...calls.values()].sort((a, b) => a.index - b.index);
  return expectation;
}

/**
 * How the answer ends for the loop: the stream's `finish_reason`, except that a refusal ending in
 * `stop` ended because of the refusal, so it reads as `content_filter` (the AI SDK's reading).
 */
export function expectedFinishReason(expectation: FixtureExpectation): string | null {
  return expectation.refused && expectation.finishReason === 'stop' ? 'content_filter' : expectation.finishReason;
}

function readPayload(frame: string): Record<string, unknown>[] {
  const data = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (data === '' || data === '[DONE]') return [];
  const value: unknown = JSON.parse(data);
  return isRecord(value) ? [value] : [];
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
