import type { ToolEvidence } from '../../core/protocol.ts';
import type { ToolPolicy } from '../tools/tool-registry.ts';
import type { RunContext, ToolHookDecision } from './engine-options.ts';

/** The `CUSTOM` event name of each governance decision in a run's log (docs/agent-loop.md, "Evidence"). */
export const EVIDENCE_EVENT = 'tool.evidence';

/**
 * Records one governance decision of a tool call: logged at once as the audit event
 * `CUSTOM{name:"tool.evidence", value:{toolCallId, source, decision, reason?}}` and kept until the
 * call's `TOOL_CALL_RESULT` carries the whole trail as `evidence`.
 */
export function recordEvidence(context: RunContext, toolCallId: string, entry: ToolEvidence): void {
  context.evidence.set(toolCallId, [...(context.evidence.get(toolCallId) ?? []), entry]);
  context.writer.post('CUSTOM', { name: EVIDENCE_EVENT, value: { toolCallId, ...entry } });
}

/** Reads the trail gathered for a call so far, as the optional `evidence` field of its result; it stays kept. */
export function readEvidence(context: RunContext, toolCallId: string): { evidence?: ToolEvidence[] } {
  const evidence = context.evidence.get(toolCallId);
  return evidence === undefined || evidence.length === 0 ? {} : { evidence };
}

/** Takes the trail gathered for a call, as the optional `evidence` field of its result. */
export function takeEvidence(context: RunContext, toolCallId: string): { evidence?: ToolEvidence[] } {
  const field = readEvidence(context, toolCallId);
  context.evidence.delete(toolCallId);
  return field;
}

/** A pre-use hook's answer as a policy with its reason, or undefined when it had no objection. */
export function readHookDecision(answer: ToolPolicy | ToolHookDecision | void): ToolHookDecision | undefined {
  if (answer === undefined) return undefined;
  return typeof answer === 'string' ? { policy: answer } : answer;
}

/** The evidence entry of a decision, with its reason when there is one. */
export function evidenceOf(
  source: ToolEvidence['source'],
  decision: ToolEvidence['decision'],
  reason?: string,
): ToolEvidence {
  return reason === undefined || reason === '' ? { source, decision } : { source, decision, reason };
}
