import type { EventEnvelope, ToolEvidence, ToolResultStatus } from '../../core/protocol.ts';
import { foldExecutorEvents } from '../../core/state/fold-executor-events.ts';
import { reduceRunEvents } from '../../core/state/run-reducer.ts';
import type { ModelMessage, ModelToolCall } from '../models/model-adapter.ts';
import { readInputMessages } from './conversation.ts';
import type { ReadProposal } from './settle-proposal.ts';
import { EVIDENCE_EVENT } from './tool-evidence.ts';

/** A tool call of the round being resumed, as its log tells it. */
export interface ResumedToolCall {
  toolCallId: string;
  name: string;
  args: unknown;
  argsDigest: string;
  /** Set when its `TOOL_CALL_RESULT` is in the log: nothing is run again. */
  result?: { status: ToolResultStatus; content: string; truncated: boolean };
  /** The approval asked for it, or the proposal it offered (open or already answered): the loop waits for it again. */
  interrupt?: { interruptId: string; expiresAt: string | undefined; proposal?: ReadProposal };
  /** Set on the write an applied proposal started: the proposal's interrupt id (settled with its proposing call). */
  proposalId?: string;
  /** Its governance decisions logged before the restart (`CUSTOM{tool.evidence}`), for its result. */
  evidence?: ToolEvidence[];
  /** Its `TOOL_CALL_DISPATCHED` (a browser call let out): the loop waits for its executor again until `expiresAt`. */
  dispatch?: { expiresAt: string };
}

/** Where a resumed run's loop picks up: the conversation so far and the open round's tool calls. */
export interface ResumePlan {
  /** The run's own messages before the open round's turn (its input, finished rounds), plus the inputs that round consumed. */
  messages: ModelMessage[];
  round: number;
  turn: { text: string; textMessageId: string | undefined; calls: ResumedToolCall[] };
}

interface RoundState {
  round: number;
  textMessageIds: string[];
  calls: Map<string, ResumedToolCall>;
}

/**
 * Rebuilds the agent loop's state from a run's log (docs/agent-loop.md, "Resume"): the run's own
 * conversation (the input, each finished round's assistant turn with its tool calls and results,
 * consumed inputs; the prompt layers and history are built as for a fresh start), and the open
 * round's tool calls with what happened to each. Returns null when the log has no open round with tool calls (nothing to
 * wait for: the run cannot be continued). Tool call ids stand in for the provider's ids.
 */
export function planResume(
  events: readonly EventEnvelope[],
  base: { inputText: string; maxResultChars: number },
): ResumePlan | null {
  const snapshot = reduceRunEvents(events, undefined, foldExecutorEvents);
  const messages: ModelMessage[] = [{ role: 'user', content: base.inputText }];
  let open: RoundState | null = null;
  const textOf = (state: RoundState): string =>
    state.textMessageIds
      .map((id) => snapshot.messages.find((message) => message.messageId === id)?.content ?? '')
      .join('');
  for (const event of events) {
    switch (event.type) {
      case 'STEP_STARTED': {
        const data = (event as EventEnvelope<'STEP_STARTED'>).data;
        open = { round: Number(data.stepName.replace(/^round:/, '')), textMessageIds: [], calls: new Map() };
        messages.push(...readInputMessages(snapshot, data.consumedInputIds ?? []));
        break;
      }
      case 'TEXT_MESSAGE_START': {
        const data = (event as EventEnvelope<'TEXT_MESSAGE_START'>).data;
        if (data.role === 'assistant') open?.textMessageIds.push(data.messageId);
        break;
      }
      case 'TOOL_CALL_START': {
        const data = (event as EventEnvelope<'TOOL_CALL_START'>).data;
        open?.calls.set(data.toolCallId, {
          toolCallId: data.toolCallId,
          name: data.toolCallName,
          args: {},
          argsDigest: '',
          ...(data.proposalId === undefined ? {} : { proposalId: data.proposalId }),
        });
        break;
      }
      case 'TOOL_CALL_END': {
        const data = (event as EventEnvelope<'TOOL_CALL_END'>).data;
        const call = open?.calls.get(data.toolCallId);
        if (call !== undefined) Object.assign(call, { args: data.args, argsDigest: data.argsDigest });
        break;
      }
      case 'INTERRUPT_REQUESTED': {
        const { interrupt } = (event as EventEnvelope<'INTERRUPT_REQUESTED'>).data;
        const call = interrupt.toolCallId === undefined ? undefined : open?.calls.get(interrupt.toolCallId);
        if (call !== undefined)
          call.interrupt = {
            interruptId: interrupt.id,
            expiresAt: interrupt.expiresAt,
            ...(interrupt.proposal === undefined
              ? {}
              : { proposal: { proposal: interrupt.proposal, argsDigest: interrupt.argsDigest ?? '' } }),
          };
        break;
      }
      case 'CUSTOM': {
        const { name, value } = (event as EventEnvelope<'CUSTOM'>).data;
        if (name !== EVIDENCE_EVENT || typeof value !== 'object' || value === null) break;
        const { toolCallId, ...entry } = value as ToolEvidence & { toolCallId: string };
        const call = open?.calls.get(toolCallId);
        if (call !== undefined) call.evidence = [...(call.evidence ?? []), entry];
        break;
      }
      case 'TOOL_CALL_DISPATCHED': {
        const data = (event as EventEnvelope<'TOOL_CALL_DISPATCHED'>).data;
        const call = open?.calls.get(data.toolCallId);
        if (call !== undefined) call.dispatch = { expiresAt: data.expiresAt };
        break;
      }
      case 'TOOL_CALL_RESULT': {
        const data = (event as EventEnvelope<'TOOL_CALL_RESULT'>).data;
        const call = open?.calls.get(data.toolCallId);
        if (call !== undefined) {
          call.result = { status: data.status, content: data.content, truncated: data.truncated === true };
        }
        break;
      }
      case 'STEP_FINISHED':
        // A proposal's write is no call of the model's: the proposing call's result tells it what the write did.
        if (open !== null)
          messages.push(
            ...turnMessages(
              textOf(open),
              [...open.calls.values()].filter((call) => call.proposalId === undefined),
              base.maxResultChars,
            ),
          );
        open = null;
        break;
      default:
        break;
    }
  }
  if (open === null || open.calls.size === 0) return null;
  return {
    messages,
    round: open.round,
    turn: { text: textOf(open), textMessageId: open.textMessageIds.at(-1), calls: [...open.calls.values()] },
  };
}

/**
 * The messages one finished turn adds to the conversation: the assistant's text (with its tool
 * calls), then one tool message per call with its result (a truncated one says so).
 */
export function turnMessages(
  text: string,
  calls: readonly Pick<ResumedToolCall, 'toolCallId' | 'name' | 'args' | 'result'>[],
  maxResultChars: number,
): ModelMessage[] {
  if (calls.length === 0) return [{ role: 'assistant', content: text }];
  const toolCalls: ModelToolCall[] = calls.map((call) => ({
    id: call.toolCallId,
    name: call.name,
    arguments: JSON.stringify(call.args) ?? '{}',
  }));
  return [
    { role: 'assistant', content: text, toolCalls },
    ...calls.map((call): ModelMessage => ({
      role: 'tool',
      toolCallId: call.toolCallId,
      content:
        (call.result?.content ?? '') +
        (call.result?.truncated === true ? `\n[truncated to ${maxResultChars} characters]` : ''),
      status: call.result?.status ?? 'unknown',
    })),
  ];
}
