import type { Limits } from '../src/core/protocol.ts';
import { DEFAULT_ATTACHMENT_LIMITS, DEFAULT_LIMITS } from '../src/server/agent-handler-defaults.ts';

/**
 * Reads `AGENT_LIMITS`, a JSON object overriding some of the handler's published limits (e.g.
 * `{"runsPerMinute":120}`, or an attachment limit such as `maxAttachmentBytes`), for `npm start`. Absent or empty → no override. Throws a `RangeError`
 * naming the problem for anything else than an object of known limit names with whole numbers ≥ 0.
 */
export function readLimitsFromEnv(env: Record<string, string | undefined>): Partial<Limits> {
  const text = env.AGENT_LIMITS?.trim();
  if (text === undefined || text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RangeError('AGENT_LIMITS must be a JSON object, e.g. {"runsPerMinute":120}.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RangeError('AGENT_LIMITS must be a JSON object, e.g. {"runsPerMinute":120}.');
  }
  const limits: Partial<Limits> = {};
  for (const [name, limit] of Object.entries(value)) {
    const isNumericLimit =
      Object.hasOwn(DEFAULT_LIMITS, name) ||
      (Object.hasOwn(DEFAULT_ATTACHMENT_LIMITS, name) && name !== 'attachmentTypes');
    if (!isNumericLimit) throw new RangeError(`AGENT_LIMITS: ${name} is not a limit.`);
    if (!Number.isInteger(limit) || (limit as number) < 0) {
      throw new RangeError(`AGENT_LIMITS: ${name} must be a whole number ≥ 0.`);
    }
    (limits as Record<string, number>)[name] = limit as number;
  }
  return limits;
}
