import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readRawResponse } from '../../../test/support/raw-http.ts';
import type { LingerLimits } from './linger-before-close.ts';
import { lingerBeforeClose } from './linger-before-close.ts';

const servers: Server[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server refusing every request at once with `Connection: close`, lingering within `limits`. */
async function startRefusingServer(limits: LingerLimits): Promise<{ port: number; openSockets: () => number }> {
  const server = createServer((req, res) => {
    lingerBeforeClose(req, limits);
    res.writeHead(413, { connection: 'close', 'content-length': '2' });
    res.end('no');
  });
  servers.push(server);
  let open = 0;
  server.on('connection', (socket: Socket) => {
    open += 1;
    socket.once('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, openSockets: () => open };
}

/** A client that never ends its side on its own and sends the head of a `contentLength` body. */
async function startUpload(port: number, contentLength: number): Promise<Socket> {
  const client = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  clients.push(client);
  client.on('error', () => undefined);
  await new Promise((resolve) => client.once('connect', resolve));
  client.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${contentLength}\r\n\r\n`);
  return client;
}

describe('lingerBeforeClose', () => {
  it('closes a connection whose client sends nothing more once maxMs has passed', async () => {
    const server = await startRefusingServer({ maxMs: 100, maxBytes: 1024 * 1024 });
    const client = await startUpload(server.port, 1_000);
    client.write('{"a":');
    expect((await readRawResponse(client)).status).toBe(413);
    // The client keeps its side open and its body unfinished; the server does not wait for it.
    await expect.poll(server.openSockets, { timeout: 5_000 }).toBe(0);
  });

  it('closes a connection whose client sends on past maxBytes, before the body ends', async () => {
    const server = await startRefusingServer({ maxMs: 60_000, maxBytes: 256 * 1024 });
    const client = await startUpload(server.port, 64 * 1024 * 1024);
    const answer = readRawResponse(client);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const sent = new Promise<string>((resolve) => {
      const sendMore = (written: number): void => {
        if (written >= 64 * 1024 * 1024) resolve('all of it');
        else client.write(chunk, (error) => (error ? resolve('cut') : sendMore(written + chunk.byteLength)));
      };
      sendMore(0);
    });
    expect((await answer).status).toBe(413);
    expect(await sent).toBe('cut');
    await expect.poll(server.openSockets, { timeout: 5_000 }).toBe(0);
  });
});
