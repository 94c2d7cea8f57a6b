import type { EventEnvelope } from '../../../core/protocol.ts';
import { foldExecutorEvents } from '../../../core/state/fold-executor-events.ts';
import { reduceRunEvents } from '../../../core/state/run-reducer.ts';
import type { AgentStorage } from '../storage-port.ts';
import { createRunCommand } from './storage-fixtures.ts';

/** One message a seeded run answers with, after its user message, or a tool call it made (`role: 'tool'`: `content` is the result). */
export interface SeededReply {
  role: 'assistant' | 'reasoning' | 'tool';
  content: string;
}

/** What {@link seedSession} writes. */
export interface SeedSessionOptions {
  sessionId: string;
  subjectId: string;
  /** The version the session is pinned to (the server's, so the session can go on). */
  agentVersionId: string;
  runs: number;
  /** The user's text of run `index` (0 first). */
  userTextOf(index: number): string;
  /** The messages run `index` answered with, in order (default one assistant message). */
  repliesOf?(index: number): SeededReply[];
}

/**
 * Writes a finished conversation straight into `storage`, the way the engine leaves one: `runs`
 * ended runs in one session of `subjectId`, each its user message and then its replies, committed
 * with their final snapshots (so their settled messages are the session's history; a `tool` reply
 * is an `orders.lookup` call and its result). Faster than running the model, for sessions of
 * thousands of messages. Returns every message id (not the tool calls'), oldest first.
 */
export async function seedSession(storage: AgentStorage, options: SeedSessionOptions): Promise<string[]> {
  const messageIds: string[] = [];
  for (let index = 0; index < options.runs; index += 1) {
    const runId = `run_${options.sessionId}_${index}`;
    const { command, run } = createRunCommand({
      runId,
      sessionId: options.sessionId,
      subjectId: options.subjectId,
      agentVersionId: options.agentVersionId,
      isNewSession: index === 0,
      text: options.userTextOf(index),
    });
    const outcome = await storage.createRun(command);
    if (outcome.kind !== 'created') throw new Error(`createRun of ${runId} refused: ${outcome.kind}`);
    messageIds.push(command.run.userMessageId);
    const batch: EventEnvelope[] = [];
    const replies = options.repliesOf?.(index) ?? [{ role: 'assistant', content: `Answer ${index + 1}` }];
    replies.forEach((reply, replyIndex) => {
      const messageId = `msg_${runId}_${replyIndex}`;
      if (reply.role === 'tool') {
        const toolCallId = `tc_${runId}_${replyIndex}`;
        batch.push(
          run.events.next('TOOL_CALL_START', { toolCallId, toolCallName: 'orders.lookup' }),
          run.events.next('TOOL_CALL_END', { toolCallId, args: { orderId: `A-${index}` }, argsDigest: 'sha256:x' }),
          run.events.next('TOOL_CALL_RESULT', { toolCallId, messageId, content: reply.content, status: 'completed' }),
        );
        return;
      }
      messageIds.push(messageId);
      if (reply.role === 'reasoning') {
        batch.push(
          run.events.next('REASONING_MESSAGE_START', { messageId, role: 'reasoning' }),
          run.events.next('REASONING_MESSAGE_CONTENT', { messageId, delta: reply.content }),
          run.events.next('REASONING_MESSAGE_END', { messageId }),
        );
      } else {
        batch.push(
          run.events.next('TEXT_MESSAGE_START', { messageId, role: 'assistant' }),
          run.events.next('TEXT_MESSAGE_CONTENT', { messageId, delta: reply.content }),
          run.events.next('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' }),
        );
      }
    });
    batch.push(run.events.next('RUN_FINISHED', { outcome: { type: 'success' } }));
    await storage.appendEvents(runId, 1, batch, {
      finalSnapshot: reduceRunEvents([run.started, ...batch], undefined, foldExecutorEvents),
    });
  }
  return messageIds;
}
