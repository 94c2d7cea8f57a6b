import type { ApprovalDecision, EventDataMap, SnapshotInterrupt } from '../../core/protocol.ts';
import { isTerminalRunStatus } from '../../core/protocol.ts';
import { fail } from '../http/problem-error.ts';
import { findResolutionSeq } from '../runs/live-runs.ts';
import type { RunEntry } from '../runs/run-store.ts';
import type { HandlerContext } from './operation-context.ts';
import { parseContractBody } from './request-body-validators.ts';

/** An answer to an interrupt: an approval decision, or the `{response}` to an input request. */
export type InterruptAnswer =
  { decision: ApprovalDecision; argsDigest: unknown; editedArgs: unknown } | { response: unknown };

/**
 * Applies one answer to an interrupt of `entry`'s run under the rules of docs/protocol.md §11 (the
 * interrupt's own state decides; the same answer again is a replay; a digest that is not the
 * interrupt's is `412`), appending `INTERRUPT_RESOLVED` in one write step. Shared by the interrupt
 * route and the AG-UI resume (docs/ag-ui.md).
 */
export async function resolveInterrupt(
  entry: RunEntry,
  request: { interruptId: string; answer: InterruptAnswer },
  context: HandlerContext,
): Promise<{ interrupt: SnapshotInterrupt; eventSeq: number; isReplayed: boolean }> {
  const { interruptId, answer } = request;
  const runId = entry.record.runId;
  let replayed: SnapshotInterrupt | null = null;
  const appended = await entry.record.transact(
    (s) => {
      const interrupt = s.interrupts.find((i) => i.id === interruptId);
      if (interrupt === undefined)
        return fail({ code: 'INTERRUPT_NOT_FOUND', detail: 'No such interrupt in this run.', runId });
      const decision = 'decision' in answer ? answer.decision : undefined;
      if (interrupt.state === 'resolved') {
        if (interrupt.decision === decision) {
          replayed = interrupt;
          return [];
        }
        return fail({
          code: 'INTERRUPT_ALREADY_RESOLVED',
          detail: 'Another answer was given first.',
          runId,
          details: { interrupt },
          extra: { interrupt },
        });
      }
      if (interrupt.state === 'expired')
        return fail({
          code: 'INTERRUPT_EXPIRED',
          detail: 'The request expired and was denied.',
          runId,
          extra: { interrupt },
        });
      if (interrupt.state === 'cancelled' || isTerminalRunStatus(s.status)) {
        return fail({
          code: 'RUN_NOT_ACTIVE',
          detail: 'The run ended before an answer.',
          runId,
          extra: { interrupt },
        });
      }
      if (interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= context.clock.now()) {
        return fail({
          code: 'INTERRUPT_EXPIRED',
          detail: 'The request expired and was denied.',
          runId,
          extra: { interrupt },
        });
      }
      const data: EventDataMap['INTERRUPT_RESOLVED'] = { interruptId, status: 'resolved', resolvedBy: 'user' };
      if ('decision' in answer) {
        if (interrupt.argsDigest !== undefined && answer.argsDigest !== interrupt.argsDigest) {
          return fail({
            code: 'ARGS_DIGEST_MISMATCH',
            detail: 'The arguments are not the ones shown; reload the request.',
            runId,
            details: { argsDigest: interrupt.argsDigest },
          });
        }
        data.decision = answer.decision;
      } else {
        // A tool approval and a proposal are decided (allow/deny of what was shown), never answered.
        if (interrupt.reason === 'tool_call' || interrupt.reason === 'proposal') {
          return fail({
            code: 'VALIDATION_FAILED',
            detail: `A ${interrupt.reason === 'proposal' ? 'proposal' : 'tool approval'} needs {decision, argsDigest}.`,
            runId,
            details: { field: 'decision' },
          });
        }
        data.response = answer.response;
      }
      return [{ type: 'INTERRUPT_RESOLVED', data }];
    },
    { maxEventBytes: context.limits.maxEventBytes, field: 'response' },
  );
  const snapshot = await entry.record.refresh();
  const interrupt = snapshot.interrupts.find((i) => i.id === interruptId) as SnapshotInterrupt;
  // A replay on a run that ended meanwhile may meet its stored record, which knows no resolutions: the log does.
  const eventSeq =
    appended[0]?.seq ??
    entry.record.resolutionSeq(interruptId) ??
    (await findResolutionSeq(context.storage, runId, interruptId)) ??
    snapshot.lastSeq;
  return { interrupt, eventSeq, isReplayed: replayed !== null };
}

/**
 * Reads a `ResolveInterruptRequest` body: `{response}` (without `decision`), or else a decision
 * checked against `DecideInterruptRequest` (field limits of docs/protocol.md §16.2); throws `422`.
 */
export function parseInterruptAnswer(value: unknown, context: HandlerContext): InterruptAnswer {
  const { limits } = context;
  const isResponse = typeof value === 'object' && value !== null && 'response' in value && !('decision' in value);
  if (isResponse) return { response: parseContractBody('AnswerInterruptRequest', value, { limits }).response };
  const { decision, argsDigest, editedArgs } = parseContractBody('DecideInterruptRequest', value, { limits });
  if (editedArgs !== undefined && !context.capabilities.approvals.approveWithEdits) {
    return fail({
      code: 'EDITED_ARGS_INVALID',
      detail: 'This agent does not accept edited arguments.',
      details: { field: 'editedArgs' },
    });
  }
  return { decision, argsDigest, editedArgs };
}
