import type { EventEnvelope } from '../../protocol.ts';
import { eventFactory } from './events.ts';

/** Ids of the recorded approval run, for assertions against `approvalRunEvents()`. */
export const APPROVAL_RUN = {
  runId: 'run_01HAPPROVAL',
  sessionId: 'ses_01GAPPROVAL',
  argsDigest: 'sha256:Zm9vYmFy',
} as const;

/**
 * Returns a realistic recorded run of 39 events, in log order: the user message echo, visible
 * reasoning, streamed text, a gated tool call approved by the user while the run waits, a
 * second user message appended through `/inputs` and consumed by round 2, a failed model attempt
 * that is discarded and retried with a notice, a `CUSTOM` audit event and a successful finish.
 */
export function approvalRunEvents(): EventEnvelope[] {
  const f = eventFactory(APPROVAL_RUN.runId, APPROVAL_RUN.sessionId);
  const { argsDigest } = APPROVAL_RUN;
  return [
    f.next('RUN_STARTED', {
      protocolVersion: '1.0',
      agent: { agentId: 'agt_12', versionId: 'agv_34' },
      model: { modelId: 'm-large', reasoningEffort: 'medium' },
      input: {
        messageId: 'msg_u1',
        clientMessageId: 'cm_7Q',
        content: [{ type: 'text', text: 'Delete draft 42' }],
        contextRefs: [{ ref: 'doc:42', title: 'Draft 42' }],
      },
      traceId: 'trace_abc',
    }),
    f.next('RUN_STATUS_CHANGED', { status: 'running' }),
    f.next('STEP_STARTED', { stepName: 'round:1' }),
    f.next('REASONING_START', { messageId: 'msg_r1' }),
    f.next('REASONING_MESSAGE_START', { messageId: 'msg_r1', role: 'reasoning' }),
    f.next('REASONING_MESSAGE_CONTENT', { messageId: 'msg_r1', delta: 'The user wants ' }),
    f.next('REASONING_MESSAGE_CONTENT', { messageId: 'msg_r1', delta: 'draft 42 removed.' }),
    f.next('REASONING_MESSAGE_END', { messageId: 'msg_r1' }),
    f.next('REASONING_END', { messageId: 'msg_r1' }),
    f.next('TEXT_MESSAGE_START', { messageId: 'msg_a1', role: 'assistant' }),
    f.next('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a1', delta: "I'll delete" }),
    f.next('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a1', delta: ' draft 42.' }),
    f.next('TEXT_MESSAGE_END', { messageId: 'msg_a1', finishReason: 'tool_calls' }),
    f.next('TOOL_CALL_START', {
      toolCallId: 'tc_1',
      toolCallName: 'drafts.delete',
      parentMessageId: 'msg_a1',
      title: 'Delete a draft',
    }),
    f.next('TOOL_CALL_ARGS', { toolCallId: 'tc_1', delta: '{"id":' }),
    f.next('TOOL_CALL_ARGS', { toolCallId: 'tc_1', delta: '42}' }),
    f.next('TOOL_CALL_END', { toolCallId: 'tc_1', args: { id: 42 }, argsDigest }),
    f.next('INTERRUPT_REQUESTED', {
      interrupt: {
        id: 'int_1',
        reason: 'tool_call',
        toolCallId: 'tc_1',
        argsDigest,
        message: 'Delete draft 42?',
        expiresAt: '2026-11-29T13:55:00.000Z',
      },
    }),
    f.next('RUN_STATUS_CHANGED', { status: 'awaiting_input' }),
    f.next('INTERRUPT_RESOLVED', { interruptId: 'int_1', status: 'resolved', decision: 'allow', resolvedBy: 'user' }),
    f.next('RUN_STATUS_CHANGED', { status: 'running' }),
    f.next('TOOL_CALL_PROGRESS', { toolCallId: 'tc_1', message: 'Deleting', fraction: 0.5 }),
    f.next('TEXT_MESSAGE_START', { messageId: 'msg_u2', role: 'user', inputId: 'inp_1', clientMessageId: 'cm_8R' }),
    f.next('TEXT_MESSAGE_CONTENT', { messageId: 'msg_u2', delta: 'Also archive draft 43' }),
    f.next('TEXT_MESSAGE_END', { messageId: 'msg_u2' }),
    f.next('TOOL_CALL_RESULT', {
      toolCallId: 'tc_1',
      messageId: 'msg_t1',
      content: '{"deleted":true}',
      status: 'completed',
    }),
    f.next('CUSTOM', { name: 'hook.completed', value: { hook: 'audit', toolCallId: 'tc_1' } }),
    f.next('STEP_FINISHED', { stepName: 'round:1' }),
    f.next('STEP_STARTED', { stepName: 'round:2', consumedInputIds: ['inp_1'] }),
    f.next('TEXT_MESSAGE_START', { messageId: 'msg_a2x', role: 'assistant' }),
    f.next('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a2x', delta: 'Do' }),
    f.next('MESSAGE_DISCARDED', { messageId: 'msg_a2x', reason: 'attempt_retry' }),
    f.next('NOTICE', { level: 'info', code: 'MODEL_RETRY', message: 'The model stalled; retrying.' }),
    f.next('TEXT_MESSAGE_START', { messageId: 'msg_a2', role: 'assistant' }),
    f.next('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a2', delta: 'Done: draft 42 is deleted. ' }),
    f.next('TEXT_MESSAGE_CONTENT', { messageId: 'msg_a2', delta: 'I cannot archive drafts.' }),
    f.next('TEXT_MESSAGE_END', { messageId: 'msg_a2', finishReason: 'stop' }),
    f.next('STEP_FINISHED', { stepName: 'round:2' }),
    f.next('RUN_FINISHED', {
      outcome: { type: 'success' },
      usage: [{ modelId: 'm-large', inputTokens: 812, outputTokens: 96, reasoningTokens: 40 }],
      costUsd: '0.004100000000',
    }),
  ];
}
