import { describe, expect, test } from 'vitest';
import { markPureCalls } from './mark-dompurify-pure-calls.ts';

describe('markPureCalls', () => {
  test('marks the calls that build a constant from literals, names and property reads', () => {
    const code = [
      'const PATTERN = seal(/a/g);',
      'const bound = unapply(Array.prototype.push);',
      'const SET = freeze(addToSet({}, ["a", ...LIST], stringToString));',
      'function createDOMPurify() {',
      '\tconst getter = lookupGetter(Element.prototype, "nodeName");',
      '}',
    ].join('\n');
    expect(markPureCalls(code)).toBe(
      [
        'const PATTERN = /* @__PURE__ */ seal(/a/g);',
        'const bound = /* @__PURE__ */ unapply(Array.prototype.push);',
        'const SET = /* @__PURE__ */ freeze(/* @__PURE__ */ addToSet({}, ["a", ...LIST], stringToString));',
        'function createDOMPurify() {',
        '\tconst getter = /* @__PURE__ */ lookupGetter(Element.prototype, "nodeName");',
        '}',
      ].join('\n'),
    );
  });

  test('leaves calls that change a shared value, run elsewhere than a constant, or call anything else', () => {
    const code = [
      'const SHARED = freeze(LIST);',
      'const MORE = addToSet(ALLOWED_TAGS, ["b"]);',
      'let PATTERN = seal(/a/);',
      'const CALLED = seal(makePattern());',
      'const FORM = document.createElement("form");',
      'function f() { const inner = seal(/b/); }',
      'function createDOMPurify() {}',
    ].join('\n');
    expect(markPureCalls(code)).toBe(code);
    expect(markPureCalls('const PATTERN = seal(/a/);')).toEqual({
      error: 'purify.es.mjs no longer declares createDOMPurify once',
    });
  });
});
