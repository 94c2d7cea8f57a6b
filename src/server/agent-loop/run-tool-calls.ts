import type { ToolResultStatus, Widget } from '../../core/protocol.ts';
import { sha256Digest } from '../json/canonical-json.ts';
import type { ModelMessage, ModelToolCall } from '../models/model-adapter.ts';
import type { PendingEvent } from '../runs/run-handle.ts';
import type { BrowserToolEntry } from '../tools/browser-tool-set.ts';
import type { ToolDefinition, ToolPolicy } from '../tools/tool-registry.ts';
import { resolveApprovalTexts, type ApprovalTexts } from './approval-texts.ts';
import { awaitApproval, type ApprovalResult } from './await-approval.ts';
import { awaitBrowserResult } from './await-browser-result.ts';
import type { Deadline } from './create-deadline.ts';
import type { RunContext, ToolCallInfo, ToolCallOutcome, ToolHookContext, ToolHookDecision } from './engine-options.ts';
import { localizeToolTitle } from './engine-texts.ts';
import { executeTool } from './execute-tool.ts';
import { findCallProblem, findTool, isBrowserTool } from './find-tool.ts';
import { interpretToolValue } from './interpret-tool-value.ts';
import { LoopStop } from './loop-stop.ts';
import type { ResumedToolCall } from './resume-plan.ts';
import { readProposal, settleProposal, type ReadProposal } from './settle-proposal.ts';
import { WidgetAnswer, WriteProposal } from '../tools/tool-outcomes.ts';
import { readWidget, type WidgetInit } from '../widgets/read-widget.ts';
import type { AttemptResult } from './stream-model-attempt.ts';
import { evidenceOf, readHookDecision, recordEvidence, takeEvidence } from './tool-evidence.ts';

const POLICY_RANK: Record<ToolPolicy, number> = { allow: 0, ask: 1, deny: 2 };

/** A tool call ready to govern and run: its tool, parsed arguments and digest. */
export interface PreparedCall {
  toolCallId: string;
  providerId: string;
  name: string;
  argumentsText: string;
  args: unknown;
  argsDigest: string;
  /** A server tool, or a browser tool of this run (the page runs it). */
  tool: ToolDefinition | BrowserToolEntry | undefined;
  /** The tool's title in the run's locale, when it has one. */
  title: string | undefined;
  /** Why the call cannot run at all (unknown tool, bad JSON, schema mismatch). */
  problem: string | undefined;
  /** Already in the log (a resumed round): it is reported, never run again. */
  result?: ToolResult;
  /** An approval already asked for (a resumed round): the call waits for it, without asking again. */
  interrupt?: ResumedToolCall['interrupt'];
  /** A browser call already let out (a resumed round): it is waited for until its old deadline, never dispatched again. */
  dispatch?: ResumedToolCall['dispatch'];
  /** The assistant message the call belongs to (a proposal's write is announced under it too). */
  parentMessageId?: string;
  /** Set on the write an applied proposal runs: the proposal's interrupt id. */
  proposalId?: string;
  /** The write a resumed round had announced for this call's applied proposal: it is settled, never announced again. */
  write?: PreparedCall;
}

/** What one tool call ended with, before it is logged as its `TOOL_CALL_RESULT`. */
export interface ToolResult {
  status: ToolResultStatus;
  content: string;
  truncated?: boolean;
  /** The tool ended the run on purpose (`endRun`). */
  ending?: { reason: string };
  /** Already logged as the call's `TOOL_CALL_RESULT` (a browser call's deadline decided it). */
  isLogged?: boolean;
  /** What the user sees beside the result (`showWidget`); never sent to the model. */
  widget?: Widget;
}

/** Options of {@link runToolCalls}. */
export interface RunToolCallsOptions {
  turn: AttemptResult;
  round: number;
  roundSignal: AbortSignal;
  deadline: Deadline;
}

/** Options of {@link settleToolCalls}: the round's announced calls instead of the model's turn. */
export interface SettleToolCallsOptions extends Omit<RunToolCallsOptions, 'turn'> {
  text: string;
  calls: readonly PreparedCall[];
  /** `length`: the model was cut off, so no call runs. */
  finishReason: AttemptResult['finishReason'];
}

/**
 * Handles the tool calls of one model turn: logs `TOOL_CALL_START` + `TOOL_CALL_END{args,
 * argsDigest}` for each, then, one call at a time, validates, governs (policy → pre-use hook,
 * which may only tighten → `canExecuteTool` → approval for `ask`, or deny when approvals are
 * off), executes with progress, runs the post-use hook and logs `TOOL_CALL_RESULT`. A `length`
 * stop fails every call unrun. Returns the assistant and tool messages for the next model call.
 */
export async function runToolCalls(context: RunContext, options: RunToolCallsOptions): Promise<ModelMessage[]> {
  const { writer } = context;
  const { turn } = options;
  const calls = turn.toolCalls.map((raw) => prepareCall(context, raw, turn.textMessageId));
  await writer.transact(() =>
    calls.flatMap((call): PendingEvent[] => [
      {
        type: 'TOOL_CALL_START',
        data: {
          toolCallId: call.toolCallId,
          toolCallName: call.name,
          ...(turn.textMessageId === undefined ? {} : { parentMessageId: turn.textMessageId }),
          ...(call.title === undefined ? {} : { title: call.title }),
          ...(isBrowserTool(call.tool) ? { executorKind: 'browser' as const } : {}),
        },
      },
      { type: 'TOOL_CALL_END', data: { toolCallId: call.toolCallId, args: call.args, argsDigest: call.argsDigest } },
    ]),
  );
  const modelCalls: ModelToolCall[] = calls.map((call) => ({
    id: call.providerId,
    name: call.name,
    arguments: call.argumentsText,
  }));
  return [
    { role: 'assistant', content: turn.text, toolCalls: modelCalls },
    ...(await settleToolCalls(context, { ...options, text: turn.text, calls, finishReason: turn.finishReason })),
  ];
}

/**
 * Runs the announced calls of a round one at a time (a call whose result is already in the log
 * is only reported) and returns their tool messages for the next model call.
 */
export async function settleToolCalls(context: RunContext, options: SettleToolCallsOptions): Promise<ModelMessage[]> {
  const { settings } = context;
  const messages: ModelMessage[] = [];
  for (const call of options.calls) {
    const result = await settleCall(context, call, options);
    if (call.result === undefined && result.ending !== undefined) {
      throw new LoopStop({ kind: 'ended', reason: result.ending.reason, toolCallId: call.toolCallId });
    }
    const note = result.truncated === true ? `\n[truncated to ${settings.limits.maxResultChars} characters]` : '';
    messages.push({ role: 'tool', toolCallId: call.providerId, content: result.content + note, status: result.status });
  }
  return messages;
}

/** Settles one call: reports a logged result, else governs and runs it and logs its `TOOL_CALL_RESULT` with its evidence. */
async function settleCall(
  context: RunContext,
  call: PreparedCall,
  options: Pick<SettleToolCallsOptions, 'round' | 'roundSignal' | 'deadline' | 'finishReason'>,
): Promise<ToolResult> {
  if (call.result !== undefined) return call.result;
  const result =
    options.finishReason === 'length'
      ? {
          status: 'failed' as const,
          content: 'The model hit its output limit before finishing its tool calls, so this call was not run.',
        }
      : await runOneCall(context, call, options);
  const evidence = takeEvidence(context, call.toolCallId);
  if (result.isLogged !== true)
    await context.writer.append('TOOL_CALL_RESULT', {
      toolCallId: call.toolCallId,
      messageId: context.settings.ids('msg'),
      content: result.content,
      status: result.status,
      ...(result.truncated === true ? { truncated: true } : {}),
      ...evidence,
      ...(result.widget === undefined ? {} : { widget: result.widget }),
    });
  return result;
}

function prepareCall(
  context: RunContext,
  raw: AttemptResult['toolCalls'][number],
  parentMessageId: string | undefined,
): PreparedCall {
  const tool = findTool(context, raw.name);
  let args: unknown = raw.argumentsText;
  let problem: string | undefined;
  try {
    args = raw.argumentsText.trim() === '' ? {} : (JSON.parse(raw.argumentsText) as unknown);
  } catch {
    problem = 'The arguments are not valid JSON, so the tool was not run.';
  }
  if (tool === undefined || problem === undefined) problem = findCallProblem(context, raw.name, args);
  return {
    toolCallId: context.settings.ids('tc'),
    providerId: raw.providerId,
    name: raw.name,
    argumentsText: raw.argumentsText,
    args,
    argsDigest: sha256Digest(args),
    tool,
    title: tool === undefined ? undefined : localizeToolTitle(tool, context.handle.locale),
    problem,
    ...(parentMessageId === undefined ? {} : { parentMessageId }),
  };
}

async function runOneCall(
  context: RunContext,
  call: PreparedCall,
  options: Pick<RunToolCallsOptions, 'round' | 'roundSignal' | 'deadline'>,
): Promise<ToolResult> {
  const { settings, handle } = context;
  const { tool } = call;
  if (tool === undefined || call.problem !== undefined)
    return { status: 'failed', content: call.problem ?? 'The tool was not run.' };
  options.roundSignal.throwIfAborted();
  // A call whose proposal a resumed round had offered already ran: only the user's answer is awaited again.
  const offered = call.interrupt?.proposal;
  if (offered !== undefined) return offerProposal(context, call, offered, options);
  const info: ToolCallInfo = {
    toolCallId: call.toolCallId,
    name: call.name,
    args: call.args as Record<string, unknown>,
    argsDigest: call.argsDigest,
    ...(isBrowserTool(tool) ? { executorKind: 'browser' as const } : {}),
    ...(call.proposalId === undefined ? {} : { proposalId: call.proposalId }),
  };
  const hookContext: ToolHookContext = {
    runId: handle.runId,
    sessionId: handle.sessionId,
    subject: handle.subject,
    round: options.round,
  };

  // A call already let out to a browser (a resumed round) was governed then: it is only waited for again.
  const refusal =
    call.dispatch !== undefined
      ? null
      : await admitCall(context, {
          call,
          tool,
          info,
          hookContext,
          deadline: options.deadline,
          signal: options.roundSignal,
        });
  if (refusal !== null) return refusal;
  options.roundSignal.throwIfAborted();

  if (isBrowserTool(tool)) {
    const browser = await awaitBrowserResult(context, {
      toolCallId: call.toolCallId,
      signal: options.roundSignal,
      deadline: options.deadline,
      ...(call.dispatch === undefined ? {} : { dispatched: call.dispatch }),
    });
    const { status, content, truncated } = browser;
    if (status !== 'completed' && status !== 'failed') return browser;
    return applyPostToolUse(context, { info, hookContext, outcome: { status, content, truncated } });
  }
  const execution = await executeTool(context, {
    tool,
    args: info.args,
    toolCallId: call.toolCallId,
    signal: options.roundSignal,
  });
  if (execution.kind === 'stopped') {
    await context.writer.append('TOOL_CALL_RESULT', {
      toolCallId: call.toolCallId,
      messageId: settings.ids('msg'),
      content: execution.message,
      status: execution.status,
    });
    throw options.roundSignal.reason;
  }
  if (execution.kind === 'unknown') return { status: 'unknown', content: execution.message };
  if (execution.kind === 'value' && execution.value instanceof WriteProposal) {
    if (call.proposalId !== undefined)
      return { status: 'failed', content: "A proposal's write must make its change, not propose another one." };
    const proposed = readProposal(context, execution.value.init);
    if ('problem' in proposed) return { status: 'failed', content: proposed.problem };
    return offerProposal(context, call, proposed, options);
  }
  const answer = execution.kind === 'value' && execution.value instanceof WidgetAnswer ? execution.value : null;
  const { ending, ...value } =
    execution.kind === 'failed'
      ? { status: 'failed' as const, content: execution.message }
      : interpretToolValue(answer === null ? execution.value : answer.result);
  const outcome = await applyPostToolUse(context, { info, hookContext, outcome: { ...value, truncated: false } });
  const widget = answer === null ? undefined : readToolWidget(context, call.name, answer.widget);
  return { ...outcome, ...(ending === undefined ? {} : { ending }), ...(widget === undefined ? {} : { widget }) };
}

/** The widget a tool answered with, checked against the catalogue; one that fails is left out and logged. */
function readToolWidget(context: RunContext, toolName: string, init: WidgetInit): Widget | undefined {
  const { settings, handle } = context;
  const read = readWidget(init, { imageOrigins: settings.widgetImageOrigins, mintId: () => settings.ids('wgt') });
  if ('widget' in read) return read.widget;
  settings.log({
    level: 'warn',
    message: `tool ${toolName} answered with a widget the catalogue refuses; it is left out`,
    runId: handle.runId,
    detail: read.problems,
  });
  return undefined;
}

/** Offers a call's proposal to the user; Apply settles its write through this loop's own governed path. */
function offerProposal(
  context: RunContext,
  call: PreparedCall,
  proposed: ReadProposal,
  options: Pick<RunToolCallsOptions, 'round' | 'roundSignal' | 'deadline'>,
): Promise<ToolResult> {
  return settleProposal(context, {
    call,
    proposed,
    deadline: options.deadline,
    settleWrite: (write) => settleCall(context, write, { ...options, finishReason: 'tool_calls' }),
  });
}

/** Runs the post-use hook on an executed call's outcome and records its evidence (its replacement is capped like any result). */
async function applyPostToolUse(
  context: RunContext,
  options: { info: ToolCallInfo; hookContext: ToolHookContext; outcome: ToolCallOutcome },
): Promise<ToolResult> {
  const { maxResultChars } = context.settings.limits;
  const outcome = { ...options.outcome, ...truncate(options.outcome.content, maxResultChars) };
  outcome.truncated ||= options.outcome.truncated;
  const { postToolUse } = context.settings.hooks;
  if (postToolUse === undefined) return outcome;
  const replaced = await postToolUse(options.info, outcome, options.hookContext);
  recordEvidence(
    context,
    options.info.toolCallId,
    evidenceOf('post_tool_use', replaced === undefined ? 'kept' : 'replaced', replaced?.reason),
  );
  return replaced === undefined ? outcome : { ...outcome, ...truncate(replaced.content, maxResultChars) };
}

/** What the user is asked to approve for `call` (a browser tool is never marked destructive). */
function approvalQuestionOf(
  call: PreparedCall,
  tool: ToolDefinition | BrowserToolEntry,
  texts?: ApprovalTexts,
): Parameters<typeof awaitApproval>[1] {
  return {
    toolCallId: call.toolCallId,
    name: call.name,
    title: call.title,
    argsDigest: call.argsDigest,
    isDestructive: !isBrowserTool(tool) && tool.destructive === true,
    ...(texts === undefined ? {} : { texts }),
  };
}

/** Governs a new call, or waits again for the approval a resumed round had asked for. */
async function admitCall(context: RunContext, options: GovernOptions): Promise<ToolResult | null> {
  const { call, tool } = options;
  if (call.interrupt === undefined) return governCall(context, options);
  const { decision } = await awaitApproval(context, approvalQuestionOf(call, tool), options.deadline, call.interrupt);
  return approvalRefusal(decision);
}

interface GovernOptions {
  call: PreparedCall;
  tool: ToolDefinition | BrowserToolEntry;
  info: ToolCallInfo;
  hookContext: ToolHookContext;
  deadline: Deadline;
  signal: AbortSignal;
}

/**
 * Governs one call before it runs: the tool's policy, tightened by the pre-use hook (a throw is
 * a deny), `canExecuteTool`, and the user's approval for `ask`. Returns the refusal to report,
 * or null when the call may run.
 */
async function governCall(context: RunContext, options: GovernOptions): Promise<ToolResult | null> {
  const { settings, handle } = context;
  const { call, tool, info, hookContext } = options;
  let policy = tool.policy;
  if (settings.hooks.preToolUse !== undefined) {
    // A hook that throws fails closed, like a hook that says deny.
    const hooked = readHookDecision(
      await Promise.resolve()
        .then(() => settings.hooks.preToolUse?.(info, hookContext))
        .catch((): ToolHookDecision => ({ policy: 'deny', reason: 'The pre-use hook failed.' })),
    );
    recordEvidence(context, call.toolCallId, evidenceOf('pre_tool_use', hooked?.policy ?? 'allow', hooked?.reason));
    if (hooked !== undefined && POLICY_RANK[hooked.policy] > POLICY_RANK[policy]) policy = hooked.policy;
  }
  options.signal.throwIfAborted();
  if (policy !== 'deny' && settings.canExecuteTool !== undefined) {
    const isAllowed = await Promise.resolve()
      .then(() => settings.canExecuteTool?.(handle.subject, info))
      .catch(() => false);
    recordEvidence(context, call.toolCallId, evidenceOf('can_execute', isAllowed === true ? 'allow' : 'deny'));
    if (isAllowed !== true)
      return { status: 'denied', content: 'You are not permitted to run this tool, so it was not run.' };
  }
  if (policy === 'deny') return { status: 'denied', content: 'A policy denies this tool call, so it was not run.' };
  if (policy === 'ask') {
    if (!settings.approvals)
      return {
        status: 'denied',
        content: 'This tool needs approval and nobody can approve it here, so it was not run.',
      };
    // A server tool's own words for this call; a browser tool's approval asks the default question.
    const texts = isBrowserTool(tool) ? undefined : await resolveApprovalTexts(context, tool, call.args);
    options.signal.throwIfAborted();
    const { decision } = await awaitApproval(context, approvalQuestionOf(call, tool, texts), options.deadline);
    return approvalRefusal(decision);
  }
  return null;
}

function approvalRefusal(decision: ApprovalResult): ToolResult | null {
  if (decision === 'deny') return { status: 'denied', content: 'The user denied this tool call, so it was not run.' };
  if (decision === 'expired')
    return { status: 'denied', content: 'Nobody approved this tool call in time, so it was not run.' };
  return null;
}

function truncate(content: string, maxChars: number): { content: string; truncated: boolean } {
  return content.length > maxChars
    ? { content: content.slice(0, maxChars), truncated: true }
    : { content, truncated: false };
}
