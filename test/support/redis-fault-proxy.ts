import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** Where a {@link RedisFaultProxy} cuts the connection of the next command that mentions a marker. */
export type RedisCut = 'before-redis' | 'after-redis';

/** A loopback TCP proxy in front of a redis-server that drops one connection at a chosen moment. */
export interface RedisFaultProxy {
  /** `redis://127.0.0.1:<port>` of the proxy. */
  url: string;
  /**
   * Arms a one-shot cut for the next bytes the client sends that contain `marker`: `before-redis`
   * drops them and the connection (Redis never runs the command), `after-redis` forwards them and
   * drops the connection instead of Redis's reply (Redis ran it, the client never hears).
   */
  cutNext(marker: string, when: RedisCut): void;
  /** How many cuts struck. */
  cuts(): number;
  close(): Promise<void>;
}

/** Starts the proxy on `127.0.0.1`, port 0, forwarding every connection to `upstreamPort`. */
export async function startRedisFaultProxy(upstreamPort: number): Promise<RedisFaultProxy> {
  let armed: { marker: string; when: RedisCut } | null = null;
  let struck = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    sockets.add(client);
    sockets.add(upstream);
    let cutOnReply = false;
    const drop = (): void => {
      struck += 1;
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      if (armed !== null && chunk.includes(armed.marker)) {
        const { when } = armed;
        armed = null;
        if (when === 'before-redis') return drop();
        cutOnReply = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (cutOnReply) return drop();
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cutNext(marker, when) {
      armed = { marker, when };
    },
    cuts: () => struck,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
