import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createClientAddressOf } from './client-address.ts';

function requestFrom(remoteAddress: string, headers: Record<string, string> = {}): IncomingMessage {
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe('createClientAddressOf', () => {
  it('without trustProxy is the socket’s address, whatever the request claims', () => {
    const clientOf = createClientAddressOf();
    const forged = { 'x-forwarded-for': '1.2.3.4', forwarded: 'for=5.6.7.8' };
    expect(clientOf(requestFrom('203.0.113.9', forged))).toBe('203.0.113.9');
    expect(clientOf(requestFrom('::ffff:203.0.113.9'))).toBe('203.0.113.9');
  });

  it('counts an IPv6 client as its /64', () => {
    const clientOf = createClientAddressOf();
    expect(clientOf(requestFrom('2001:db8:0:1:aaaa::1'))).toBe('2001:db8:0:1::/64');
    expect(clientOf(requestFrom('2001:db8:0:1:bbbb:cccc:dddd:eeee'))).toBe('2001:db8:0:1::/64');
    expect(clientOf(requestFrom('2001:db8::7'))).toBe('2001:db8:0:0::/64');
    expect(clientOf(requestFrom('::1'))).toBe('0:0:0:0::/64');
  });

  it('behind trusted proxies takes the rightmost address no trusted proxy vouches past', () => {
    const clientOf = createClientAddressOf(['10.0.0.0/8', '192.0.2.1']);
    const cases: Array<[string, Record<string, string>, string]> = [
      ['10.0.0.5', { 'x-forwarded-for': '198.51.100.7' }, '198.51.100.7'],
      // What the client wrote itself (the left part) is never believed.
      ['10.0.0.5', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' }, '198.51.100.7'],
      // Two trusted hops: the load balancer and a proxy behind it.
      ['10.0.0.5', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 192.0.2.1' }, '198.51.100.7'],
      ['10.0.0.5', { forwarded: 'for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https' }, '2001:db8:cafe:0::/64'],
      ['10.0.0.5', { forwarded: 'for=198.51.100.7:9000', 'x-forwarded-for': '6.6.6.6' }, '198.51.100.7'],
      // A direct client is not a proxy: its headers are ignored.
      ['198.51.100.99', { 'x-forwarded-for': '6.6.6.6' }, '198.51.100.99'],
      // A trusted proxy that sent nothing usable stays the client.
      ['10.0.0.5', { 'x-forwarded-for': 'unknown' }, '10.0.0.5'],
      ['10.0.0.5', {}, '10.0.0.5'],
    ];
    expect(cases.map(([remote, headers]) => clientOf(requestFrom(remote, headers)))).toEqual(
      cases.map(([, , expected]) => expected),
    );
  });

  it('refuses an entry that is not an address or a subnet at creation', () => {
    for (const entry of ['*', 'lb.internal', '10.0.0.0/33', '10.0.0.0/x']) {
      expect(() => createClientAddressOf([entry])).toThrow(TypeError);
    }
  });
});
