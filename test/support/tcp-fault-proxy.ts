import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** One HTTP request seen on the wire, with the raw response bytes forwarded for it so far. */
export interface ProxiedExchange {
  method: string;
  path: string;
  response: Buffer;
}

/** Which exchanges a fault applies to. */
export type ExchangeMatcher = (exchange: { method: string; path: string }) => boolean;

/** A one-shot fault on the response of the next matching request. */
export interface ResponseFault {
  match: ExchangeMatcher;
  /** Response bytes forwarded before the fault strikes (0: strike before the first byte). */
  afterBytes: number;
  /** `cut` destroys both sockets; `stall` keeps them open but forwards nothing more (half-open). */
  kind: 'cut' | 'stall';
}

/** A loopback TCP proxy that forwards to an upstream port and injects socket-level faults. */
export interface TcpFaultProxy {
  readonly port: number;
  /** Every request in arrival order (parsed from request lines; keep-alive reuse is followed). */
  readonly exchanges: readonly ProxiedExchange[];
  /** How many requests matched. */
  count(match: ExchangeMatcher): number;
  /** Arms a one-shot fault; faults fire in the order they were armed. */
  addFault(fault: ResponseFault): void;
  /**
   * Holds back the whole response of the next matching request (the server has answered, the
   * client has not heard: a slow server) until the returned function releases it.
   */
  holdNext(match: ExchangeMatcher): () => void;
  /** Destroys every open connection at once (a network drop). */
  cutAll(): void;
  /** Sends new connections to another upstream port (a restarted server). */
  setUpstream(port: number): void;
  close(): Promise<void>;
}

const REQUEST_LINE = /(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/g;

/**
 * Starts the proxy on `127.0.0.1`, port 0. Playwright routes and fetch mocks cannot cut a
 * streaming body halfway, so faults are injected here, between real sockets. Requests on one
 * connection are assumed not pipelined (true of Node's fetch), so the downstream bytes after a
 * request line belong to that request's response.
 */
export async function startTcpFaultProxy(options: { upstreamPort: number }): Promise<TcpFaultProxy> {
  let upstreamPort = options.upstreamPort;
  const exchanges: ProxiedExchange[] = [];
  const faults: ResponseFault[] = [];
  const holds: Array<{ match: ExchangeMatcher; isReleased: boolean; onRelease: Array<() => void> }> = [];
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    sockets.add(client);
    sockets.add(upstream);
    let current: ProxiedExchange | null = null;
    let fault: ResponseFault | null = null;
    let isStalled = false;
    let held: Buffer[] | null = null;
    const destroyBoth = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      for (const match of chunk.toString('latin1').matchAll(REQUEST_LINE)) {
        current = { method: match[1] as string, path: match[2] as string, response: Buffer.alloc(0) };
        exchanges.push(current);
        const index = faults.findIndex((f) => f.match(current as ProxiedExchange));
        fault = index < 0 ? null : (faults.splice(index, 1)[0] as ResponseFault);
        const holdIndex = holds.findIndex((h) => h.match(current as ProxiedExchange));
        const hold = holdIndex < 0 ? undefined : holds.splice(holdIndex, 1)[0];
        if (hold !== undefined && !hold.isReleased) {
          const chunks: Buffer[] = [];
          held = chunks;
          hold.onRelease.push(() => {
            if (held === chunks) held = null;
            for (const chunk of chunks) client.write(chunk);
          });
        }
      }
      if (!isStalled) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (isStalled) return;
      if (held !== null) {
        if (current !== null) current.response = Buffer.concat([current.response, chunk]);
        held.push(chunk);
        return;
      }
      let forward = chunk;
      if (current !== null && fault !== null) {
        const room = fault.afterBytes - current.response.length;
        if (room < chunk.length) {
          forward = chunk.subarray(0, Math.max(0, room));
          const strike = fault;
          fault = null;
          current.response = Buffer.concat([current.response, forward]);
          client.write(forward, () => {
            if (strike.kind === 'cut') destroyBoth();
          });
          if (strike.kind === 'stall') isStalled = true;
          return;
        }
      }
      if (current !== null) current.response = Buffer.concat([current.response, forward]);
      client.write(forward);
    });
    client.on('error', destroyBoth);
    upstream.on('error', destroyBoth);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      if (!isStalled && held === null) client.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    exchanges,
    count: (match) => exchanges.filter((exchange) => match(exchange)).length,
    addFault: (fault) => faults.push(fault),
    holdNext(match) {
      const hold = { match, isReleased: false, onRelease: [] as Array<() => void> };
      holds.push(hold);
      return () => {
        hold.isReleased = true;
        for (const release of hold.onRelease.splice(0)) release();
      };
    },
    cutAll() {
      for (const socket of sockets) socket.destroy();
    },
    setUpstream(nextPort) {
      upstreamPort = nextPort;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
