import type { Proposal } from '../../core/protocol.ts';
import { sha256Digest } from '../json/canonical-json.ts';
import { diffLines } from '../tools/diff-lines.ts';
import type { ProposalInit } from '../tools/tool-outcomes.ts';
import { awaitApproval } from './await-approval.ts';
import type { Deadline } from './create-deadline.ts';
import type { RunContext } from './engine-options.ts';
import { localizeToolTitle } from './engine-texts.ts';
import type { PreparedCall, ToolResult } from './run-tool-calls.ts';
import { findCallProblem } from './find-tool.ts';

/** A proposal as the log carries it, with the digest of the arguments Apply runs. */
export interface ReadProposal {
  proposal: Proposal;
  argsDigest: string;
}

/**
 * Reads what a tool proposed into the preview the user sees: the write must be a server tool
 * of the run and its arguments must match that tool's schema now (so Apply never offers a write
 * that cannot run), a text `diff` becomes its lines, and the whole proposal must fit
 * `maxResultChars` as JSON. Returns the reason to fail the proposing call with otherwise.
 */
export function readProposal(context: RunContext, init: ProposalInit): ReadProposal | { problem: string } {
  if (!isWellFormed(init))
    return {
      problem: 'The tool returned a malformed proposal (its summary, fields, diff or write), so it was not offered.',
    };
  const { tool, arguments: args } = init.apply;
  if (context.settings.registry.get(tool) === undefined)
    return {
      problem: `The proposal names "${tool}", which is not a server tool of this agent, so it cannot be applied.`,
    };
  const problem = findCallProblem(context, tool, args, { isProposalWrite: true });
  if (problem !== undefined) return { problem: `The proposal cannot be applied. ${problem}` };
  const proposal: Proposal = {
    summary: init.summary,
    ...(init.fields === undefined ? {} : { fields: init.fields }),
    ...(init.diff === undefined ? {} : { diff: diffLines(init.diff.before, init.diff.after) }),
    apply: { tool, arguments: args },
  };
  if (JSON.stringify(proposal).length > context.settings.limits.maxResultChars)
    return { problem: 'The proposal is too large to show, so it was not offered.' };
  return { proposal, argsDigest: sha256Digest(args) };
}

/** Whether a proposal has the shape its type promises (a tool written in JavaScript may not keep it). */
function isWellFormed(init: ProposalInit): boolean {
  const isText = (value: unknown): value is string => typeof value === 'string';
  const { summary, fields, diff, apply } = init as Partial<ProposalInit>;
  return (
    isText(summary) &&
    summary.trim() !== '' &&
    (fields === undefined ||
      (Array.isArray(fields) &&
        fields.every(
          (field) => isText(field.name) && isText(field.after) && (field.before === undefined || isText(field.before)),
        ))) &&
    (diff === undefined || (isText(diff.before) && isText(diff.after))) &&
    isText(apply?.tool) &&
    typeof apply.arguments === 'object' &&
    apply.arguments !== null &&
    !Array.isArray(apply.arguments)
  );
}

/** Options of {@link settleProposal}. */
export interface SettleProposalOptions {
  /** The proposing call (its `interrupt` is set when a resumed round had already asked). */
  call: PreparedCall;
  proposed: ReadProposal;
  deadline: Deadline;
  /** Governs, runs and logs the write (the loop's own path for any call), returning its result. */
  settleWrite(write: PreparedCall): Promise<ToolResult>;
}

/**
 * Asks the user to apply or dismiss a proposal (an interrupt `reason: "proposal"` whose digest is
 * the write's arguments', docs/protocol.md §11.1) and waits for the answer. Apply announces the
 * write as a call of its own (`TOOL_CALL_START{proposalId}` + `TOOL_CALL_END` with exactly the
 * stored arguments) and settles it through the governed path; Dismiss and expiry change nothing.
 * Returns the proposing call's result, which tells the model what happened.
 */
export async function settleProposal(context: RunContext, options: SettleProposalOptions): Promise<ToolResult> {
  const { call, proposed } = options;
  const { decision, interruptId } = await awaitApproval(
    context,
    {
      toolCallId: call.toolCallId,
      name: call.name,
      title: call.title,
      argsDigest: proposed.argsDigest,
      isDestructive: false,
      proposal: proposed.proposal,
    },
    options.deadline,
    call.interrupt,
  );
  if (decision === 'deny')
    return { status: 'denied', content: 'The user dismissed the proposal, so nothing was changed.' };
  if (decision === 'expired')
    return { status: 'denied', content: 'Nobody answered the proposal in time, so nothing was changed.' };
  const write =
    call.write ?? (await announceWrite(context, { call, proposal: proposed.proposal, proposalId: interruptId }));
  const result = await options.settleWrite(write);
  const { tool } = proposed.proposal.apply;
  const content =
    result.status === 'completed'
      ? `The user applied the proposal: ${tool} returned ${result.content}`
      : `The user applied the proposal, but ${tool} ended ${result.status}: ${result.content}`;
  const { maxResultChars } = context.settings.limits;
  return {
    status: result.status,
    content: content.slice(0, maxResultChars),
    ...(content.length > maxResultChars || result.truncated === true ? { truncated: true } : {}),
    ...(result.ending === undefined ? {} : { ending: result.ending }),
  };
}

/** Logs the write an applied proposal (interrupt `proposalId`) runs as a call of its own, under the proposing call's message. */
async function announceWrite(
  context: RunContext,
  options: { call: PreparedCall; proposal: Proposal; proposalId: string },
): Promise<PreparedCall> {
  const { settings, handle, writer } = context;
  const { tool: name, arguments: args } = options.proposal.apply;
  const { proposalId } = options;
  const tool = settings.registry.get(name);
  const write: PreparedCall = {
    toolCallId: settings.ids('tc'),
    providerId: '',
    name,
    argumentsText: JSON.stringify(args),
    args,
    argsDigest: sha256Digest(args),
    tool,
    title: tool === undefined ? undefined : localizeToolTitle(tool, handle.locale),
    problem: findCallProblem(context, name, args, { isProposalWrite: true }),
    proposalId,
    ...(options.call.parentMessageId === undefined ? {} : { parentMessageId: options.call.parentMessageId }),
  };
  await writer.transact(() => [
    {
      type: 'TOOL_CALL_START',
      data: {
        toolCallId: write.toolCallId,
        toolCallName: name,
        ...(write.parentMessageId === undefined ? {} : { parentMessageId: write.parentMessageId }),
        ...(write.title === undefined ? {} : { title: write.title }),
        proposalId,
      },
    },
    { type: 'TOOL_CALL_END', data: { toolCallId: write.toolCallId, args, argsDigest: write.argsDigest } },
  ]);
  return write;
}
