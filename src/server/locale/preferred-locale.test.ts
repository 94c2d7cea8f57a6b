import { describe, expect, it } from 'vitest';
import { readPreferredLocale } from './preferred-locale.ts';

describe('readPreferredLocale', () => {
  it('picks the tag with the highest q, the first of equals, skipping * and malformed tags', () => {
    expect(readPreferredLocale('zh-CN')).toBe('zh-CN');
    expect(readPreferredLocale('en;q=0.5, zh-CN;q=0.9, fr;q=0.9')).toBe('zh-CN');
    expect(readPreferredLocale('*, de')).toBe('de');
    expect(readPreferredLocale('en;q=0, <script>')).toBeUndefined();
    expect(readPreferredLocale(undefined)).toBeUndefined();
    expect(readPreferredLocale(null)).toBeUndefined();
  });
});
