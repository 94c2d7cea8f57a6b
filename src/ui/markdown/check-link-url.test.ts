import { describe, expect, test } from 'vitest';
import { checkLinkUrl, encodeLinkDestination } from './check-link-url.ts';
import type { CheckedLink } from './check-link-url.ts';

/** Destinations as the HTML parser hands them over: character references are already decoded. */
const CASES: Array<[string, CheckedLink | undefined]> = [
  ['https://example.com/a b', { href: 'https://example.com/a%20b', host: 'example.com' }],
  ['HTTP://EXAMPLE.com:8080', { href: 'http://example.com:8080/', host: 'example.com:8080' }],
  ['mailto:me@example.com', { href: 'mailto:me@example.com', host: '' }],
  ['/docs?q=1&r=2', { href: '/docs?q=1&r=2', host: '' }],
  ['docs/intro.md', { href: 'docs/intro.md', host: '' }],
  ['foo\\bar', { href: 'foo%5Cbar', host: '' }],
  ['#section', { href: '#section', host: '' }],
  ['', { href: '', host: '' }],
  ['//attacker.example', { href: 'https://attacker.example/', host: 'attacker.example' }],
  ['/\\attacker.example/x', { href: 'https://attacker.example/x', host: 'attacker.example' }],
  ['https://ex\u200Bample.com/\u202E\u{E0041}', { href: 'https://example.com/', host: 'example.com' }],
  ['javascript:alert(1)', undefined],
  [' JAVASCRIPT:alert(1)', undefined],
  ['java\tscript:alert(1)', undefined],
  ['\u0001javascript:alert(1)', undefined],
  ['https://example.com/\u0085', undefined],
  ['data:text/html,x', undefined],
  ['vbscript:x', undefined],
  ['file:///etc/passwd', undefined],
  ['https:relative', undefined],
];

describe('checkLinkUrl', () => {
  test.each(CASES)('%j', (destination, expected) => {
    expect(checkLinkUrl(destination)).toEqual(expected);
  });
});

describe('encodeLinkDestination', () => {
  test('percent-encodes as marked does, keeping escapes and character references', () => {
    expect(encodeLinkDestination('foo\\bar[1] ä')).toBe('foo%5Cbar%5B1%5D%20%C3%A4');
    expect(encodeLinkDestination('/a%20b?x=%25&amp;y')).toBe('/a%20b?x=%25&amp;y');
    expect(encodeLinkDestination('/f&ouml;&ouml;')).toBe('/f&ouml;&ouml;');
  });

  test('removes invisible characters first and refuses a lone surrogate', () => {
    expect(encodeLinkDestination('https://ex\u200Bample.com/\u2066\u{E0041}')).toBe('https://example.com/');
    expect(encodeLinkDestination('/a\uD800')).toBeUndefined();
  });
});
