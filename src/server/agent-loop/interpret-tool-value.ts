import { RunEnding } from '../tools/tool-outcomes.ts';

/** What a tool's returned value means for its result: content, and maybe the run's end. */
export interface InterpretedValue {
  status: 'completed';
  content: string;
  ending?: { reason: string };
}

/**
 * Reads a tool's return value: `endRun(reason, result)` completes the call and ends the run;
 * anything else is the content (a string as is, other values as JSON).
 */
export function interpretToolValue(value: unknown): InterpretedValue {
  if (value instanceof RunEnding) {
    return { status: 'completed', content: serialize(value.result ?? value.reason), ending: { reason: value.reason } };
  }
  return { status: 'completed', content: serialize(value) };
}

function serialize(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}
