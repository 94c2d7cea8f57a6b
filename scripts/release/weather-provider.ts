import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completionChunk } from '../../src/server/models/test-support/fake-openai-server.ts';

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
  requests: ReceivedMessage[][];
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
 * How many requests with the follow-up last fail with a 500: one more than the server's own model
 * retries (3 by default), so the turn fails and the user presses Retry; the next one succeeds.
 */
export const FOLLOW_UP_FAILURES = 4;

/**
 * Starts a provider that speaks the real Chat Completions stream format (`chat.completion.chunk`
 * frames, then `[DONE]`): a request without a tool result gets a `get_weather` call for Paris; one
 * with a tool result gets `WEATHER_ANSWER_WORDS`, slowly enough to reload the page in the middle.
 * A request whose last message is `FOLLOW_UP_QUESTION` fails (`FOLLOW_UP_FAILURES` times), then
 * gets `FOLLOW_UP_ANSWER`.
 */
export async function startWeatherProvider(): Promise<WeatherProvider> {
  const requests: ReceivedMessage[][] = [];
  let followUpFailures = 0;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { messages: ReceivedMessage[] };
      requests.push(body.messages);
      if (body.messages.at(-1)?.content === FOLLOW_UP_QUESTION && followUpFailures < FOLLOW_UP_FAILURES) {
        followUpFailures += 1;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"The upstream is overloaded.","type":"server_error"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (body.messages.at(-1)?.content === FOLLOW_UP_QUESTION) {
        res.end(
          `${completionChunk({ role: 'assistant', content: FOLLOW_UP_ANSWER })}${completionChunk({}, 'stop')}data: [DONE]\n\n`,
        );
        return;
      }
      if (!body.messages.some((message) => message.role === 'tool')) {
        const call = { index: 0, id: 'call_weather_1', type: 'function' };
        res.write(
          completionChunk({
            role: 'assistant',
            tool_calls: [{ ...call, function: { name: 'get_weather', arguments: '' } }],
          }),
        );
        res.write(completionChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] }));
        res.end(`${completionChunk({}, 'tool_calls')}data: [DONE]\n\n`);
        return;
      }
      let written = 0;
      const timer = setInterval(() => {
        if (written === WEATHER_ANSWER_WORDS.length) {
          clearInterval(timer);
          res.end(`${completionChunk({}, 'stop')}data: [DONE]\n\n`);
          return;
        }
        res.write(completionChunk({ content: `${written === 0 ? '' : ' '}${WEATHER_ANSWER_WORDS[written]}` }));
        written += 1;
      }, WORD_INTERVAL_MS);
      res.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
