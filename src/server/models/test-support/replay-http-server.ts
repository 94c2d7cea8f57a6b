import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One reply of the replay server. */
export type ReplayReply =
  /** A recorded body served as it is, with a status (an error response). */
  | { kind: 'http'; status: number; body: string }
  /** SSE frames; `hold` keeps the response open after them (a stream that never ends). */
  | { kind: 'sse'; frames: string[]; hold?: boolean };

/** A request the replay server got. */
export interface ReplayRequest {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** A local HTTP server that answers each POST, on any path, with the next queued reply. */
export interface ReplayHttpServer {
  /** `http://127.0.0.1:<port>` plus nothing: providers append their own paths to a `baseURL`. */
  origin: string;
  requests: ReplayRequest[];
  /** Queues replies for the next requests (the last one repeats). */
  reply(...replies: ReplayReply[]): void;
  /** Resolves once `count` requests arrived. */
  received(count: number): Promise<void>;
  /** Resolves once a held response's client went away (the adapter aborted its request). */
  closedByClient(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads a recorded `*.chunks.txt` (the AI SDK's fixture format: one stream part's JSON per line,
 * without the SSE envelope) from `src/server/models/fixtures/ai-sdk/` as SSE `data:` frames, the
 * way the provider sent them.
 */
export function readChunkFrames(name: string): string[] {
  return readRecording(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `data: ${line}\n\n`);
}

/** The parsed JSON lines of a recorded `*.chunks.txt`. */
export function readChunkPayloads(name: string): Record<string, unknown>[] {
  return readRecording(name)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A recording of `src/server/models/fixtures/ai-sdk/`, verbatim. */
export function readRecording(name: string): string {
  return readFileSync(new URL(`../fixtures/ai-sdk/${name}`, import.meta.url), 'utf8');
}

/** Starts the replay server on 127.0.0.1, port 0. */
export async function startReplayHttpServer(): Promise<ReplayHttpServer> {
  const queue: ReplayReply[] = [];
  const requests: ReplayRequest[] = [];
  let onClientClose: (() => void) | null = null;
  const clientClosed = new Promise<void>((resolve) => {
    onClientClose = resolve;
  });
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        body: JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>,
        headers: req.headers,
      });
      for (const waiter of waiters.filter((w) => w.count <= requests.length)) waiter.resolve();
      const reply = (queue.length > 1 ? queue.shift() : queue[0]) ?? { kind: 'http', status: 500, body: '{}' };
      if (reply.kind === 'http') {
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const frame of reply.frames) res.write(frame);
      if (reply.hold === true) res.on('close', () => onClientClose?.());
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => queue.push(...replies),
    received: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    closedByClient: () => clientClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
