import { describe, expect, it } from 'vitest';
import { countRequestChars, createTokenCalibration, DEFAULT_TOKENS_PER_CHAR } from './token-estimate.ts';

describe('token estimates', () => {
  it('counts text, tool calls, 16 characters of framing per message and the tool list JSON', () => {
    const chars = countRequestChars(
      [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'a.b', arguments: '{"x":1}' }] },
      ],
      [{ name: 'a.b', description: 'd', parameters: {} }],
    );
    expect(chars).toBe(
      5 + 16 + (3 + 7) + 16 + JSON.stringify([{ name: 'a.b', description: 'd', parameters: {} }]).length,
    );
  });

  it('calibrates characters per token from the last reported prompt, per key, within bounds', () => {
    const calibration = createTokenCalibration(2);
    expect(calibration.tokensPerChar('s1')).toBe(DEFAULT_TOKENS_PER_CHAR);
    calibration.record('s1', 1_000, 500);
    expect(calibration.tokensPerChar('s1')).toBe(0.5);
    calibration.record('s1', 1_000, 300);
    expect(calibration.tokensPerChar('s1')).toBe(0.3);
    calibration.record('s2', 1_000, 1_000_000);
    expect(calibration.tokensPerChar('s2')).toBe(2);
    calibration.record('s2', 0, 10);
    expect(calibration.tokensPerChar('s2')).toBe(2);
    // A third key forgets the least recently used one (s1 was read after s2 was written, so s2 goes).
    calibration.tokensPerChar('s1');
    calibration.record('s3', 100, 10);
    expect([calibration.tokensPerChar('s1'), calibration.tokensPerChar('s2'), calibration.tokensPerChar('s3')]).toEqual(
      [0.3, DEFAULT_TOKENS_PER_CHAR, 0.1],
    );
  });
});
