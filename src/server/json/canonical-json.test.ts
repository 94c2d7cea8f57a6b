import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Digest } from './canonical-json.ts';

describe('canonicalJson', () => {
  const cases: { title: string; value: unknown; expected: string }[] = [
    {
      title: 'sorts keys at every depth',
      value: { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } },
      expected: '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    },
    { title: 'sorts by UTF-16 code units', value: { é: 1, z: 2, A: 3 }, expected: '{"A":3,"z":2,"é":1}' },
    {
      title: 'drops undefined members, nulls undefined items',
      value: { a: undefined, b: [undefined, 1] },
      expected: '{"b":[null,1]}',
    },
    { title: 'writes numbers as JSON.stringify', value: [1e21, 0.1, -0, 10.5], expected: '[1e+21,0.1,0,10.5]' },
    { title: 'escapes strings', value: 'a"b\n\u2028', expected: '"a\\"b\\n\u2028"' },
    { title: 'scalars', value: [true, false, null, 'x'], expected: '[true,false,null,"x"]' },
  ];
  for (const { title, value, expected } of cases) {
    it(title, () => {
      expect(canonicalJson(value)).toBe(expected);
    });
  }

  it('rejects values JSON cannot hold', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });
});

describe('sha256Digest', () => {
  it('digests the canonical form, so key order does not matter', () => {
    const expected = `sha256:${createHash('sha256').update('{"id":42,"kind":"draft"}').digest('base64url')}`;
    expect(sha256Digest({ kind: 'draft', id: 42 })).toBe(expected);
    expect(sha256Digest({ id: 42, kind: 'draft' })).toBe(expected);
  });
});
