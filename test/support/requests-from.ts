import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { freshKey } from '../../src/server/test-support/start-test-server.ts';

/** A whole HTTP answer: status, headers and body text (an SSE body read to its end). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Where the agent API listens: a loopback port, under `/api/agent/v1`. */
export interface ListeningAgent {
  port: number;
}

/**
 * One request from `localAddress` (every 127.x.y.z is loopback on Linux, so each is a network
 * client of its own) as `user` (`x-test-user`, identity `idn_<user>`): a GET without `body`,
 * else a JSON POST with a fresh idempotency key.
 */
export function requestFrom(
  server: ListeningAgent,
  localAddress: string,
  options: { user: string; path: string; body?: unknown; headers?: Record<string, string> },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        localAddress,
        agent: false,
        method: body === undefined ? 'GET' : 'POST',
        path: `/api/agent/v1${options.path}`,
        headers: {
          'x-test-user': options.user,
          'x-agent-identity': `idn_${options.user}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': freshKey() }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a TCP connection to the agent from `localAddress`; `opened` collects it for the test's cleanup. */
export function openFrom(server: ListeningAgent, localAddress: string, opened: Socket[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: server.port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.once('error', reject);
    opened.push(socket);
  });
}
