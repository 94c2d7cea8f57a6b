import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.ts';

const NOW = Date.UTC(2026, 10, 29, 13, 40, 0);

describe('parseRetryAfter', () => {
  const cases: Array<[string, string | null | undefined, number | null]> = [
    ['delta-seconds', '120', 120_000],
    ['zero seconds', '0', 0],
    ['padded delta-seconds', ' 3 ', 3000],
    ['IMF-fixdate in the future', new Date(NOW + 5000).toUTCString(), 5000],
    ['IMF-fixdate in the past', new Date(NOW - 60_000).toUTCString(), 0],
    ['RFC 850 date', 'Sunday, 29-Nov-26 13:40:09 GMT', 9000],
    ['negative number', '-5', null],
    ['fraction', '1.5', null],
    ['loose date text', '2026-11-29T13:40:05Z', null],
    ['garbage', 'soon', null],
    ['empty', '', null],
    ['missing', null, null],
    ['undefined', undefined, null],
  ];
  for (const [title, value, expected] of cases) {
    it(title, () => {
      expect(parseRetryAfter(value, NOW)).toBe(expected);
    });
  }
});
