import type { ModelMessage } from '../models/model-adapter.ts';
import type { RunContext } from './engine-options.ts';
import type { ResumedToolCall, ResumePlan } from './resume-plan.ts';
import { localizeToolTitle } from './engine-texts.ts';
import type { PreparedCall, RunToolCallsOptions } from './run-tool-calls.ts';
import { findCallProblem, findTool } from './find-tool.ts';
import { settleToolCalls } from './run-tool-calls.ts';

/**
 * Goes on with the open round of a resumed run: its announced tool calls as the assistant's turn,
 * then each call settled in order (a logged result is reported, a logged approval is waited for
 * again, the rest are governed and run as usual). Returns the turn's messages for the next model call.
 */
export async function resumeToolCalls(
  context: RunContext,
  options: Omit<RunToolCallsOptions, 'turn'> & { turn: ResumePlan['turn'] },
): Promise<ModelMessage[]> {
  const { turn, ...rest } = options;
  // A proposal's write is settled by its proposing call (never announced again), not as a call of the model's.
  const writes = turn.calls.filter((call) => call.proposalId !== undefined);
  const calls = turn.calls
    .filter((call) => call.proposalId === undefined)
    .map((call) => {
      const write = writes.find((candidate) => candidate.proposalId === call.interrupt?.interruptId);
      return {
        ...prepareResumedCall(context, call, turn.textMessageId),
        ...(write === undefined ? {} : { write: prepareResumedCall(context, write, turn.textMessageId) }),
      };
    });
  for (const call of turn.calls) if (call.evidence !== undefined) context.evidence.set(call.toolCallId, call.evidence);
  const assistant: ModelMessage = {
    role: 'assistant',
    content: turn.text,
    toolCalls: calls.map((call) => ({ id: call.providerId, name: call.name, arguments: call.argumentsText })),
  };
  return [
    assistant,
    ...(await settleToolCalls(context, { ...rest, text: turn.text, calls, finishReason: 'tool_calls' })),
  ];
}

/** The prepared form of a call a resumed round logged: its tool looked up and its arguments checked again. */
function prepareResumedCall(
  context: RunContext,
  call: ResumedToolCall,
  parentMessageId: string | undefined,
): PreparedCall {
  const tool = findTool(context, call.name);
  const isProposalWrite = call.proposalId !== undefined;
  return {
    toolCallId: call.toolCallId,
    providerId: call.toolCallId,
    name: call.name,
    argumentsText: JSON.stringify(call.args) ?? '{}',
    args: call.args,
    argsDigest: call.argsDigest,
    tool,
    title: tool === undefined ? undefined : localizeToolTitle(tool, context.handle.locale),
    problem: findCallProblem(context, call.name, call.args, { isProposalWrite }),
    ...(parentMessageId === undefined ? {} : { parentMessageId }),
    ...(call.proposalId === undefined ? {} : { proposalId: call.proposalId }),
    ...(call.result === undefined ? {} : { result: call.result }),
    ...(call.interrupt === undefined ? {} : { interrupt: call.interrupt }),
    ...(call.dispatch === undefined ? {} : { dispatch: call.dispatch }),
  };
}
