import { describe, expect, it } from 'vitest';
import { EN_STRINGS } from './en.ts';
import { formatString, resolveStrings } from './resolve-strings.ts';
import { ZH_CN_STRINGS } from './zh-cn.ts';

describe('resolveStrings', () => {
  it('picks Simplified Chinese for zh tags and English otherwise, with overrides on top', () => {
    expect(resolveStrings('zh-CN')).toBe(ZH_CN_STRINGS);
    expect(resolveStrings('zh')).toBe(ZH_CN_STRINGS);
    expect(resolveStrings('en-GB')).toBe(EN_STRINGS);
    expect(resolveStrings('ar')).toBe(EN_STRINGS);
    expect(resolveStrings('en', { send: 'Go' })).toEqual({ ...EN_STRINGS, send: 'Go' });
  });

  it('translates every English key', () => {
    expect(Object.keys(ZH_CN_STRINGS).sort()).toEqual(Object.keys(EN_STRINGS).sort());
  });
});

describe('formatString', () => {
  it('fills known placeholders and leaves unknown ones', () => {
    expect(formatString('{count} / {max} {unit}', { count: 3, max: 10 })).toBe('3 / 10 {unit}');
  });
});
