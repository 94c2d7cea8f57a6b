import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted reply: a plain HTTP answer, or an SSE stream written piece by piece. */
export type FakeReply =
  | { kind: 'http'; status: number; headers?: Record<string, string>; body: string }
  /**
   * Writes each piece as its own chunk, `intervalMs` apart when given (a slow model); `cut`
   * destroys the socket afterwards instead of ending.
   */
  | { kind: 'stream'; pieces: (string | Uint8Array)[]; cut?: boolean; intervalMs?: number };

/** A local Chat Completions server for tests. */
export interface FakeOpenAiServer {
  /** The base URL to give the adapter (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  /** Every request body (parsed) and its authorization header, in order. */
  requests: { body: Record<string, unknown>; authorization: string | undefined }[];
  /** Queues replies for the next requests (the last one repeats). */
  reply(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

/** Formats one Chat Completions stream chunk as an SSE `data:` frame. */
export function sseChunk(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** One `chat.completion.chunk` frame of a single choice: its `delta` and, on the last, its finish reason. */
export function completionChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return sseChunk({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_764_720_000,
    model: 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

/** Writes a stream reply's pieces (paced by `intervalMs`), then ends or cuts the response. */
function writePieces(res: ServerResponse, reply: Extract<FakeReply, { kind: 'stream' }>): void {
  const finish = (): void => {
    // Cut only once the pieces reached the socket, so the client reads them before the break.
    if (reply.cut === true) res.write('', () => setTimeout(() => res.destroy(), 20));
    else res.end();
  };
  if (reply.intervalMs === undefined) {
    for (const piece of reply.pieces) res.write(piece);
    finish();
    return;
  }
  let written = 0;
  const timer = setInterval(() => {
    const piece = reply.pieces[written];
    written += 1;
    if (piece === undefined) {
      clearInterval(timer);
      finish();
    } else res.write(piece);
  }, reply.intervalMs);
  res.on('close', () => clearInterval(timer));
}

/** Starts the fake provider on 127.0.0.1, port 0; answers `POST /v1/chat/completions` from its queue. */
export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const queue: FakeReply[] = [];
  const requests: FakeOpenAiServer['requests'] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      requests.push({
        body: JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>,
        authorization: req.headers.authorization,
      });
      const reply = (queue.length > 1 ? queue.shift() : queue[0]) ?? {
        kind: 'http',
        status: 500,
        body: 'no reply queued',
      };
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
      } else if (reply.kind === 'http') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body);
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        writePieces(res, reply);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
