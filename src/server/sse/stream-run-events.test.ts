import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../core/protocol.ts';
import type { EventReader } from '../runs/event-log.ts';
import type { RunEventStream } from './stream-run-events.ts';
import { streamRunEvents } from './stream-run-events.ts';
import { bigEvent, settlesWithin, testStreamOptions } from './test-support/stream-fixtures.ts';
import { writeNodeResponse } from '../node/write-node-response.ts';

/** A run whose log holds `events` and never grows. */
function fixedLog(events: EventEnvelope[]): EventReader {
  return {
    read: async (_runId, afterSeq, limit) => events.filter((event) => event.seq > afterSeq).slice(0, limit),
    subscribe: () => () => undefined,
  };
}

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

/** A loopback server whose every request goes to `onRequest`. */
async function listen(onRequest: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  server = createServer(onRequest);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Starts a stream for `req` and writes it to `res` as the Node adapter does. */
function start(req: IncomingMessage, res: ServerResponse, eventLog: EventReader): RunEventStream {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  if (res.destroyed) gone.abort();
  const stream = streamRunEvents(testStreamOptions(gone.signal, eventLog));
  void writeNodeResponse(stream.response, res);
  return stream;
}

describe('streamRunEvents ends whatever it is waiting on', () => {
  it('settles at once for a client that left before the stream began (its close already fired)', async () => {
    let stream: RunEventStream | null = null;
    const began = new Promise<void>((resolve) => {
      void listen(async (req, res) => {
        // The route's own checks (cursor, storage) took long enough for the client to go.
        req.socket.destroy();
        await once(res, 'close');
        stream = start(req, res, fixedLog([]));
        resolve();
      }).then((port) => {
        request({ port, path: '/runs/r1/events' })
          .on('error', () => undefined)
          .end();
      });
    });
    await began;
    expect(await settlesWithin((stream as unknown as RunEventStream).done, 2_000)).toBe(true);
  });

  it('settles on close() while it waits for a client that has stopped reading', async () => {
    const events = Array.from({ length: 400 }, (_, index) => bigEvent(index + 1));
    let stream: RunEventStream | null = null;
    let response: ServerResponse | null = null;
    const port = await listen((req, res) => {
      response = res;
      stream = start(req, res, fixedLog(events));
    });
    const client = request({ port, path: '/runs/r1/events' });
    client.on('response', (incoming) => incoming.pause());
    client.on('error', () => undefined);
    client.end();
    // Wait until the server holds unsent bytes: the stream is parked on backpressure.
    await expect.poll(() => (response as ServerResponse | null)?.writableNeedDrain, { timeout: 10_000 }).toBe(true);
    const open = stream as unknown as RunEventStream;
    open.close();
    expect(await settlesWithin(open.done, 2_000)).toBe(true);
    client.destroy();
  });
});
