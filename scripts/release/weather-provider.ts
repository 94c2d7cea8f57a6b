import { completionChunk, startFakeOpenAiServer } from '../../src/server/models/test-support/fake-openai-server.ts';
import type { FakeReply } from '../../src/server/models/test-support/fake-openai-server.ts';

/** One Chat Completions message as the provider received it. */
export interface ReceivedMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

/** A fake OpenAI-compatible provider for the newcomer test of `test:package`. */
export interface WeatherProvider {
  /** `http://127.0.0.1:<port>/v1`, for `OPENAI_BASE_URL`. */
  baseUrl: string;
  /** The `messages` of every chat completion request, in order. */
  readonly requests: ReceivedMessage[][];
  close(): Promise<void>;
}

/** The words of the answer after the tool ran, streamed one every `WORD_INTERVAL_MS`. */
export const WEATHER_ANSWER_WORDS = [
  'In',
  'Paris',
  'it',
  'is',
  '18',
  '°C',
  'with',
  'light',
  'rain.',
  ...Array.from({ length: 24 }, (_, index) => `Take an umbrella (${index + 1}).`),
  'Done.',
];
const WORD_INTERVAL_MS = 100;

/** A second question whose first answers fail, so the user retries the turn. */
export const FOLLOW_UP_QUESTION = 'And tomorrow?';
export const FOLLOW_UP_ANSWER = 'Tomorrow it is sunny.';
/**
 * How many requests with the follow-up fail with a 500: one more than the server's own model
 * retries (3 by default), so the turn fails and the user presses Retry; the next one succeeds.
 */
export const FOLLOW_UP_FAILURES = 4;

/**
 * Starts the shared fake provider (real `chat.completion.chunk` frames, then `[DONE]`) with the
 * recipe's conversation as its replies, in order: a `get_weather` call for Paris; once the tool ran,
 * `WEATHER_ANSWER_WORDS`, slowly enough to reload the page in the middle; then, for
 * `FOLLOW_UP_QUESTION`, `FOLLOW_UP_FAILURES` answers of 500 and `FOLLOW_UP_ANSWER`.
 */
export async function startWeatherProvider(): Promise<WeatherProvider> {
  const provider = await startFakeOpenAiServer();
  const call = { index: 0, id: 'call_weather_1', type: 'function' };
  const toolCall: FakeReply = {
    kind: 'stream',
    pieces: [
      completionChunk({
        role: 'assistant',
        tool_calls: [{ ...call, function: { name: 'get_weather', arguments: '' } }],
      }),
      completionChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }),
      `${completionChunk({}, 'tool_calls')}data: [DONE]\n\n`,
    ],
  };
  const slowAnswer: FakeReply = {
    kind: 'stream',
    pieces: [
      ...WEATHER_ANSWER_WORDS.map((word, index) => completionChunk({ content: `${index === 0 ? '' : ' '}${word}` })),
      `${completionChunk({}, 'stop')}data: [DONE]\n\n`,
    ],
    intervalMs: WORD_INTERVAL_MS,
  };
  const overloaded: FakeReply = {
    kind: 'http',
    status: 500,
    body: '{"error":{"message":"The upstream is overloaded.","type":"server_error"}}',
  };
  const followUpAnswer: FakeReply = {
    kind: 'stream',
    pieces: [
      `${completionChunk({ role: 'assistant', content: FOLLOW_UP_ANSWER })}${completionChunk({}, 'stop')}data: [DONE]\n\n`,
    ],
  };
  provider.reply(toolCall, slowAnswer, ...Array.from({ length: FOLLOW_UP_FAILURES }, () => overloaded), followUpAnswer);
  return {
    baseUrl: provider.baseUrl,
    get requests() {
      return provider.requests.map((request) => request.body['messages'] as ReceivedMessage[]);
    },
    close: () => provider.close(),
  };
}
