import type { TokenUsage } from '../../core/protocol.ts';
import type { ModelPrice } from './engine-options.ts';

/** Money is kept in whole picodollars (10⁻¹² USD): the 12 decimals of the wire's decimal strings. */
const DECIMALS = 12;
const SCALE = 10n ** BigInt(DECIMALS);
const MILLION = 1_000_000n;
const DECIMAL_PATTERN = /^(\d{1,12})(?:\.(\d{1,12}))?$/;

/** Parses a decimal string of US dollars (`"1.5"`, `"0.004100000000"`) into picodollars; throws on anything else. */
export function parseUsd(decimal: string): bigint {
  const match = DECIMAL_PATTERN.exec(decimal);
  if (match === null) throw new RangeError(`"${decimal}" is not a decimal amount of at most 12 + 12 digits.`);
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(DECIMALS, '0'));
}

/** Formats picodollars as the wire's decimal string with 12 decimals (`"0.004100000000"`). */
export function formatUsd(picodollars: bigint): string {
  const whole = picodollars / SCALE;
  const fraction = (picodollars % SCALE).toString().padStart(DECIMALS, '0');
  return `${whole}.${fraction}`;
}

/**
 * What `usage` costs at `price` (cache-read input tokens at its cached price), in picodollars,
 * rounded up to the next picodollar (a limit is never passed by rounding down). Integer arithmetic only.
 */
export function costOfUsage(
  usage: Pick<TokenUsage, 'inputTokens' | 'outputTokens' | 'cachedInputTokens'>,
  price: ModelPrice,
): bigint {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const perMillion =
    BigInt(usage.inputTokens - cached) * parseUsd(price.inputPerMillionUsd) +
    BigInt(cached) * parseUsd(price.cachedInputPerMillionUsd ?? price.inputPerMillionUsd) +
    BigInt(usage.outputTokens) * parseUsd(price.outputPerMillionUsd);
  return (perMillion + MILLION - 1n) / MILLION;
}
