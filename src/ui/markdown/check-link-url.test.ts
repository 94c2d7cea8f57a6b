import { describe, expect, test } from 'vitest';
import { checkLinkUrl } from './check-link-url.ts';
import type { CheckedLink } from './check-link-url.ts';

const CASES: Array<[string, CheckedLink | undefined]> = [
  [
    'https://example.com/a b',
    { href: 'https://example.com/a%20b', host: 'example.com', title: 'https://example.com/a%20b' },
  ],
  [
    'HTTP://EXAMPLE.com:8080',
    { href: 'http://example.com:8080/', host: 'example.com:8080', title: 'http://example.com:8080/' },
  ],
  ['mailto:me@example.com', { href: 'mailto:me@example.com', host: '', title: 'mailto:me@example.com' }],
  ['/docs?q=1&amp;r=2', { href: '/docs?q=1&r=2', host: '', title: '/docs?q=1&r=2' }],
  ['#section', { href: '#section', host: '', title: '#section' }],
  [
    '//attacker.example',
    { href: 'https://attacker.example/', host: 'attacker.example', title: 'https://attacker.example/' },
  ],
  [
    '/\\attacker.example/x',
    { href: 'https://attacker.example/x', host: 'attacker.example', title: 'https://attacker.example/x' },
  ],
  [
    'https://ex\u200Bample.com/\u202E',
    { href: 'https://example.com/', host: 'example.com', title: 'https://example.com/' },
  ],
  ['javascript:alert(1)', undefined],
  [' JAVASCRIPT:alert(1)', undefined],
  ['java\tscript:alert(1)', undefined],
  ['&#x6A;avascript:alert(1)', undefined],
  ['javascript&colon;alert(1)', undefined],
  ['\u0001javascript:alert(1)', undefined],
  ['data:text/html,x', undefined],
  ['vbscript:x', undefined],
  ['file:///etc/passwd', undefined],
  ['https:relative', undefined],
  ['https://example.com/&unknown;', undefined],
  ['', undefined],
];

describe('checkLinkUrl', () => {
  test.each(CASES)('%j', (href, expected) => {
    expect(checkLinkUrl(href)).toEqual(expected);
  });
});
