import type { RunSnapshot, ToolResultStatus } from '../../core/protocol.ts';
import { sha256Digest } from '../json/canonical-json.ts';
import type { PendingEvent } from './run-handle.ts';

/** Options of {@link closeOpenItems}. */
export interface CloseOpenItemsOptions {
  /** Why the run ends: sets the messages' `finishReason` (`cancelled` or `error`). */
  reason: 'cancelled' | 'error';
  /** Mints the `messageId` of each synthesized `TOOL_CALL_RESULT` (e.g. `() => ids('msg')`). */
  newMessageId: () => string;
}

/**
 * Returns the events that close everything still open in `snapshot` (docs/protocol.md §7.2 rule 4),
 * to append just before a terminal event: `TEXT_MESSAGE_END{finishReason}` for streaming text,
 * `REASONING_MESSAGE_END` + `REASONING_END` for streaming reasoning, `INTERRUPT_RESOLVED{cancelled}`
 * for open interrupts, then a `TOOL_CALL_RESULT` per unfinished tool call: `unknown` when it may
 * be executing (the executor never confirmed), `cancelled` when it never started. A tool call
 * still streaming its arguments first gets its `TOOL_CALL_END`. Pure; an empty list when nothing
 * is open.
 */
export function closeOpenItems(snapshot: RunSnapshot, options: CloseOpenItemsOptions): PendingEvent[] {
  const events: PendingEvent[] = [];
  const finishReason = options.reason;
  for (const message of snapshot.messages) {
    if (message.status !== 'streaming') continue;
    if (message.role === 'reasoning') {
      events.push({ type: 'REASONING_MESSAGE_END', data: { messageId: message.messageId } });
      events.push({ type: 'REASONING_END', data: { messageId: message.messageId } });
    } else {
      events.push({ type: 'TEXT_MESSAGE_END', data: { messageId: message.messageId, finishReason } });
    }
  }
  for (const interrupt of snapshot.interrupts) {
    if (interrupt.state !== 'open') continue;
    events.push({
      type: 'INTERRUPT_RESOLVED',
      data: { interruptId: interrupt.id, status: 'cancelled', resolvedBy: 'cancel' },
    });
  }
  for (const call of snapshot.toolCalls) {
    let status: ToolResultStatus;
    switch (call.status) {
      case 'streaming_args': {
        const args = parseArgs(call.argsText ?? '');
        events.push({
          type: 'TOOL_CALL_END',
          data: { toolCallId: call.toolCallId, args, argsDigest: sha256Digest(args) },
        });
        status = 'cancelled';
        break;
      }
      case 'pending':
      case 'awaiting_approval':
      case 'awaiting_executor':
        status = 'cancelled';
        break;
      case 'running':
        status = 'unknown';
        break;
      default:
        continue;
    }
    const content =
      status === 'unknown'
        ? 'The run ended before the tool confirmed its outcome.'
        : 'The run ended before the tool ran.';
    events.push({
      type: 'TOOL_CALL_RESULT',
      data: { toolCallId: call.toolCallId, messageId: options.newMessageId(), content, status },
    });
  }
  return events;
}

/** Ids of accepted `/inputs` the agent never consumed (for `unconsumedInputIds` of a terminal event). */
export function pendingInputIds(snapshot: RunSnapshot): string[] {
  return snapshot.inputs.filter((input) => input.state === 'pending').map((input) => input.inputId);
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}
