import type { Proposal, RunSnapshot } from '../../core/protocol.ts';
import type { Deadline } from './create-deadline.ts';
import type { ApprovalTexts } from './approval-texts.ts';
import type { RunContext } from './engine-options.ts';
import { fillText } from './engine-texts.ts';
import { LoopStop } from './loop-stop.ts';

/** How an approval ended, for the loop. */
export type ApprovalResult = 'allow' | 'deny' | 'expired';

/** The user's answer to an approval, with the id of the interrupt that asked (a proposal's write is logged under it). */
export interface ApprovalAnswer {
  decision: ApprovalResult;
  interruptId: string;
}

/** The call an approval is about; with `proposal`, the user answers Apply or Dismiss to that preview instead. */
export interface ApprovalQuestion {
  toolCallId: string;
  name: string;
  title: string | undefined;
  argsDigest: string;
  isDestructive: boolean;
  /** The tool's question about this call and what allowing it does (its `approval`, resolved for the run). */
  texts?: ApprovalTexts;
  proposal?: Proposal;
}

/**
 * Asks the user to approve one tool call and waits for the decision: appends
 * `INTERRUPT_REQUESTED` and `RUN_STATUS_CHANGED{awaiting_input}` together, pauses the round
 * deadline, and waits until the interrupt is no longer open. The HTTP layer writes the user's
 * `INTERRUPT_RESOLVED`; on TTL expiry this appends `INTERRUPT_RESOLVED{expired, deny, timeout}`
 * if it is still open (fail closed). A cancel rejects with the stop reason (the finalizer closes
 * the interrupt). Afterwards `RUN_STATUS_CHANGED{running}` unless the run is cancelling.
 * With `existing` (a resumed run), the interrupt is already in the log: nothing is asked again
 * and it expires at its own `expiresAt`. The tool's summary (`call.texts`) is the question, in
 * `message` and `metadata.summary`, and its consequence `metadata.consequence`. A proposal is asked the same way, as `reason: "proposal"`
 * with its summary as the message (docs/protocol.md §11.1). Returns the decision with the
 * interrupt's id.
 */
export async function awaitApproval(
  context: RunContext,
  call: ApprovalQuestion,
  deadline: Deadline,
  existing?: { interruptId: string; expiresAt: string | undefined },
): Promise<ApprovalAnswer> {
  const { settings, writer, handle } = context;
  const now = settings.clock.now();
  // The handler's published `interruptDefaultTtlSec` when the run has one, else the engine's own.
  const ttlMs = handle.interruptTtlMs ?? settings.limits.interruptTtlMs;
  const asked = existing ?? {
    interruptId: settings.ids('int'),
    expiresAt: new Date(now + ttlMs).toISOString(),
  };
  const { interruptId, expiresAt } = asked;
  const ttl = expiresAt === undefined ? ttlMs : Math.max(0, Date.parse(expiresAt) - now);
  const isOpen = (snapshot: RunSnapshot): boolean =>
    snapshot.interrupts.some((i) => i.id === interruptId && i.state === 'open');
  const isAsked =
    existing === undefined ? await askForApproval(context, call, asked) : handle.snapshot().status !== 'cancelling';
  if (!isAsked) throw new LoopStop({ kind: 'cancel' });
  deadline.pause();
  const timer = settings.clock.setTimeout(() => {
    writer
      .transact((snapshot) =>
        isOpen(snapshot)
          ? [
              {
                type: 'INTERRUPT_RESOLVED',
                data: { interruptId, status: 'expired', decision: 'deny', resolvedBy: 'timeout' },
              },
            ]
          : [],
      )
      .catch(() => undefined);
  }, ttl);
  let snapshot: RunSnapshot;
  try {
    snapshot = await handle.waitFor((s) => !isOpen(s), context.stopSignal);
  } finally {
    settings.clock.clearTimeout(timer);
  }
  context.stopSignal.throwIfAborted();
  const interrupt = snapshot.interrupts.find((i) => i.id === interruptId);
  if (interrupt?.state === 'cancelled') throw new LoopStop({ kind: 'cancel' });
  const resumed = await writer.transact((s) =>
    s.status === 'cancelling' ? [] : [{ type: 'RUN_STATUS_CHANGED', data: { status: 'running' } }],
  );
  if (resumed.length === 0) throw new LoopStop({ kind: 'cancel' });
  deadline.resume();
  if (interrupt?.state === 'expired') return { decision: 'expired', interruptId };
  return {
    decision: interrupt?.state === 'resolved' && interrupt.decision === 'allow' ? 'allow' : 'deny',
    interruptId,
  };
}

/** Appends `INTERRUPT_REQUESTED` and `RUN_STATUS_CHANGED{awaiting_input}` together; false when the run is cancelling. */
async function askForApproval(
  context: RunContext,
  call: ApprovalQuestion,
  interrupt: { interruptId: string; expiresAt: string | undefined },
): Promise<boolean> {
  const requested = await context.writer.transact((snapshot) =>
    snapshot.status === 'cancelling'
      ? []
      : [
          {
            type: 'INTERRUPT_REQUESTED',
            data: {
              interrupt: {
                id: interrupt.interruptId,
                reason: call.proposal === undefined ? 'tool_call' : 'proposal',
                toolCallId: call.toolCallId,
                argsDigest: call.argsDigest,
                message:
                  call.proposal?.summary ??
                  call.texts?.summary ??
                  fillText(context.texts.approvalQuestion, { tool: call.title ?? call.name, name: call.name }),
                ...(interrupt.expiresAt === undefined ? {} : { expiresAt: interrupt.expiresAt }),
                ...metadataOf(call),
                ...(call.proposal === undefined ? {} : { proposal: call.proposal }),
              },
            },
          },
          {
            type: 'RUN_STATUS_CHANGED',
            data: { status: 'awaiting_input', reason: call.proposal === undefined ? 'approval' : 'proposal' },
          },
        ],
  );
  return requested.length > 0;
}

/** The interrupt's `metadata`: `destructive`, the tool's `summary` and `consequence`; nothing when none is set. */
function metadataOf(call: ApprovalQuestion): { metadata?: Record<string, unknown> } {
  const metadata = {
    ...(call.isDestructive ? { destructive: true } : {}),
    ...(call.texts?.summary === undefined ? {} : { summary: call.texts.summary }),
    ...(call.texts?.consequence === undefined ? {} : { consequence: call.texts.consequence }),
  };
  return Object.keys(metadata).length === 0 ? {} : { metadata };
}
