import { describe, expect, it } from 'vitest';
import { applyJsonPatch, JsonPatchError } from './apply-json-patch.ts';

// The examples of RFC 6902 appendix A, as AG-UI's STATE_DELTA carries them.
describe('applyJsonPatch', () => {
  it('adds, removes and replaces members and array elements', () => {
    expect(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }])).toEqual({
      foo: 'bar',
      baz: 'qux',
    });
    expect(applyJsonPatch({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }])).toEqual({
      foo: ['bar', 'qux', 'baz'],
    });
    expect(applyJsonPatch({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: 'end' }])).toEqual({
      foo: ['bar', 'end'],
    });
    expect(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }])).toEqual({ foo: 'bar' });
    expect(applyJsonPatch({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }])).toEqual({
      foo: ['bar', 'baz'],
    });
    expect(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }])).toEqual({
      baz: 'boo',
      foo: 'bar',
    });
    expect(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: [1] }])).toEqual([1]);
  });

  it('moves and copies, and unescapes ~0 and ~1 in pointers', () => {
    expect(
      applyJsonPatch({ foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [
        { op: 'move', from: '/foo/waldo', path: '/qux/thud' },
      ]),
    ).toEqual({ foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } });
    expect(
      applyJsonPatch({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }]),
    ).toEqual({
      foo: ['all', 'cows', 'eat', 'grass'],
    });
    expect(applyJsonPatch({ a: { b: [1] } }, [{ op: 'copy', from: '/a/b', path: '/c' }])).toEqual({
      a: { b: [1] },
      c: [1],
    });
    expect(
      applyJsonPatch({ 'a/b': 1, 'm~n': 2 }, [
        { op: 'replace', path: '/a~1b', value: 3 },
        { op: 'remove', path: '/m~0n' },
      ]),
    ).toEqual({
      'a/b': 3,
    });
  });

  it('is all or nothing and never changes its input', () => {
    const document = { baz: 'qux', foo: ['a', 2, 'c'] };
    expect(
      applyJsonPatch(document, [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ]),
    ).toEqual(document);
    expect(() =>
      applyJsonPatch(document, [
        { op: 'replace', path: '/baz', value: 'changed' },
        { op: 'test', path: '/baz', value: 'bar' },
      ]),
    ).toThrow(new JsonPatchError('test failed at /baz'));
    expect(document).toEqual({ baz: 'qux', foo: ['a', 2, 'c'] });
  });

  it.each([
    [{ foo: 'bar' }, { op: 'add', path: '/baz/bat', value: 'qux' }, 'no member baz'],
    [{ foo: 'bar' }, { op: 'remove', path: '/missing' }, 'no member missing to remove'],
    [{ foo: 'bar' }, { op: 'replace', path: '/missing', value: 1 }, 'no member missing to replace'],
    [{ foo: [1] }, { op: 'add', path: '/foo/5', value: 2 }, 'index 5 out of range'],
    [{ foo: [1] }, { op: 'add', path: '/foo/01', value: 2 }, 'not an array index: 01'],
    [{ foo: 'bar' }, { op: 'add', path: 'foo', value: 2 }, 'not a JSON pointer: foo'],
    [{ foo: 'bar' }, { op: 'remove', path: '' }, 'cannot remove the whole document'],
  ] as const)('refuses %o %o: %s', (document, operation, message) => {
    expect(() => applyJsonPatch(document, [operation])).toThrow(new JsonPatchError(message));
  });
});
