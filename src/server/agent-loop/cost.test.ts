import { describe, expect, it } from 'vitest';
import { costOfUsage, formatUsd, parseUsd } from './cost.ts';

describe('money in whole picodollars', () => {
  it('parses and formats decimal strings exactly, with 12 decimals', () => {
    expect(parseUsd('1')).toBe(1_000_000_000_000n);
    expect(parseUsd('0.004100000000')).toBe(4_100_000_000n);
    expect(formatUsd(parseUsd('0.1') + parseUsd('0.2'))).toBe('0.300000000000');
    expect(formatUsd(parseUsd('999999999999.999999999999'))).toBe('999999999999.999999999999');
    for (const bad of ['', '-1', '1e3', '0.1234567890123', '1.', '.5', ' 1']) {
      expect(() => parseUsd(bad), bad).toThrow(RangeError);
    }
  });

  it('prices usage per million tokens and rounds a fraction of a picodollar up', () => {
    const price = { inputPerMillionUsd: '0.150000', outputPerMillionUsd: '0.600000' };
    expect(formatUsd(costOfUsage({ inputTokens: 1_000_000, outputTokens: 0 }, price))).toBe('0.150000000000');
    // 812 × 0.15 + 96 × 0.6 = 179.4 µ$ → 0.0001794 $.
    expect(formatUsd(costOfUsage({ inputTokens: 812, outputTokens: 96 }, price))).toBe('0.000179400000');
    // One token at a price of 1e-12 $ per million: 1e-18 $, never rounded down to nothing.
    expect(
      costOfUsage(
        { inputTokens: 1, outputTokens: 0 },
        { inputPerMillionUsd: '0.000000000001', outputPerMillionUsd: '0' },
      ),
    ).toBe(1n);
    expect(costOfUsage({ inputTokens: 0, outputTokens: 0 }, price)).toBe(0n);
  });
});
