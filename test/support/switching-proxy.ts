import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded, and to which upstream. */
export interface ForwardedRequest {
  method: string;
  path: string;
  upstream: string;
}

/** A loopback HTTP load balancer over several upstreams, which the test can steer. */
export interface SwitchingProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request forwarded so far, in arrival order. */
  readonly forwarded: readonly ForwardedRequest[];
  /** Sends every following request to `upstream` (one of the names given), or in turn again with `null`. */
  pin(upstream: string | null): void;
  close(): Promise<void>;
}

/**
 * Starts an HTTP proxy over `upstreams` (name → `http://127.0.0.1:<port>`): each request goes to the
 * next upstream in turn (round robin, no stickiness), or to the pinned one. Responses stream
 * through as they come (SSE included); an upstream that is down answers 502.
 */
export async function startSwitchingProxy(upstreams: Record<string, string>): Promise<SwitchingProxy> {
  const names = Object.keys(upstreams);
  const forwarded: ForwardedRequest[] = [];
  let pinned: string | null = null;
  let turn = 0;
  const server = createServer((req, res) => {
    const name = pinned ?? (names[turn++ % names.length] as string);
    forwarded.push({ method: req.method ?? 'GET', path: req.url ?? '/', upstream: name });
    const target = new URL(req.url ?? '/', upstreams[name]);
    const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    pin(upstream) {
      pinned = upstream;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
