import { describe, expect, it } from 'vitest';
import { readLimitsFromEnv } from './limits-from-env.ts';

describe('readLimitsFromEnv', () => {
  it('reads the overrides of AGENT_LIMITS, and none without it', () => {
    expect(readLimitsFromEnv({})).toEqual({});
    expect(readLimitsFromEnv({ AGENT_LIMITS: ' ' })).toEqual({});
    expect(readLimitsFromEnv({ AGENT_LIMITS: '{"runsPerMinute":600,"maxActiveRuns":12}' })).toEqual({
      runsPerMinute: 600,
      maxActiveRuns: 12,
    });
    expect(readLimitsFromEnv({ AGENT_LIMITS: '{"maxAttachmentBytes":1048576}' })).toEqual({
      maxAttachmentBytes: 1048576,
    });
  });

  it.each([
    ['runsPerMinute=600', 'AGENT_LIMITS must be a JSON object, e.g. {"runsPerMinute":120}.'],
    ['[1]', 'AGENT_LIMITS must be a JSON object, e.g. {"runsPerMinute":120}.'],
    ['{"runsPerHour":5}', 'AGENT_LIMITS: runsPerHour is not a limit.'],
    ['{"attachmentTypes":1}', 'AGENT_LIMITS: attachmentTypes is not a limit.'],
    ['{"runsPerMinute":"600"}', 'AGENT_LIMITS: runsPerMinute must be a whole number ≥ 0.'],
    ['{"maxInputChars":1.5}', 'AGENT_LIMITS: maxInputChars must be a whole number ≥ 0.'],
  ])('refuses %s with a message naming the problem', (text, message) => {
    expect(() => readLimitsFromEnv({ AGENT_LIMITS: text })).toThrow(new RangeError(message));
  });
});
