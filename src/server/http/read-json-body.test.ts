import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSystemClock } from '../../core/clock.ts';
import { openRawSocket } from '../../../test/support/raw-http.ts';
import { canonicalJson, MAX_CANONICAL_DEPTH } from '../json/canonical-json.ts';
import { exceedsJsonDepth } from './json-depth.ts';
import { readJsonBody } from './read-json-body.ts';
import { RequestAbortedError } from './request-body.ts';
import { toWebRequest } from '../node/to-web-request.ts';

describe('exceedsJsonDepth', () => {
  const cases: { title: string; text: string; maxDepth: number; expected: boolean }[] = [
    { title: 'counts arrays and objects alike', text: '{"a":[{"b":[]}]}', maxDepth: 4, expected: false },
    { title: 'one level too many', text: '{"a":[{"b":[[]]}]}', maxDepth: 4, expected: true },
    { title: 'ignores brackets inside strings', text: '["[[[[{{{{"]', maxDepth: 1, expected: false },
    { title: 'follows escaped quotes', text: '["\\"[[[[", "\\\\", [[]]]', maxDepth: 2, expected: true },
    { title: 'siblings do not add up', text: '[[],[],[],[]]', maxDepth: 2, expected: false },
    { title: 'scalars have no depth', text: '"x"', maxDepth: 0, expected: false },
  ];
  for (const { title, text, maxDepth, expected } of cases) {
    it(title, () => {
      expect(exceedsJsonDepth(text, maxDepth)).toBe(expected);
    });
  }
});

describe('canonicalJson depth bound', () => {
  it(`throws a RangeError past ${MAX_CANONICAL_DEPTH} levels instead of overflowing the stack`, () => {
    let value: unknown = [];
    for (let depth = 1; depth < MAX_CANONICAL_DEPTH; depth += 1) value = [value];
    expect(canonicalJson(value)).toBe(`${'['.repeat(MAX_CANONICAL_DEPTH)}${']'.repeat(MAX_CANONICAL_DEPTH)}`);
    expect(() => canonicalJson({ a: value })).toThrow(RangeError);
    let deep: unknown = {};
    for (let depth = 0; depth < 20_000; depth += 1) deep = { a: deep };
    expect(() => canonicalJson(deep)).toThrow(`canonicalJson: nested deeper than ${MAX_CANONICAL_DEPTH} levels`);
  });
});

describe('readJsonBody', () => {
  it('rejects with RequestAbortedError when the client left before the body was read', async () => {
    let arrived: () => void = () => undefined;
    const hasArrived = new Promise<void>((resolve) => (arrived = resolve));
    const outcome = new Promise<unknown>((resolve) => {
      const server = createServer((req: IncomingMessage) => {
        arrived();
        // As the Node adapter hands it to the fetch core: its body read only when the core reads it.
        const request = toWebRequest(req, new URL('http://x/'), new AbortController().signal);
        // The product's authentication is still running when the client resets the connection.
        req.once('close', () => {
          readJsonBody(request, { maxBytes: 1000, timeoutMs: 60_000, clock: createSystemClock() }).then(
            resolve,
            resolve,
          );
          setTimeout(() => resolve('still pending'), 500).unref();
          server.close();
        });
      });
      server.listen(0, '127.0.0.1', () => {
        void openRawSocket((server.address() as AddressInfo).port).then((socket) => {
          socket.write(
            'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":',
          );
          // Reset once the server has the request (its headers), before the body is read.
          void hasArrived.then(() => socket.resetAndDestroy());
        });
      });
    });
    expect(await outcome).toBeInstanceOf(RequestAbortedError);
  });
});
