import { describe, expect, it } from 'vitest';
import type {
  EventEnvelope,
  RunSnapshot,
  SnapshotInterrupt,
  SnapshotMessage,
  SnapshotToolCall,
  Widget,
} from '../protocol.ts';
import { EVENT_TYPES } from '../protocol.ts';
import { foldExecutorEvents } from './fold-executor-events.ts';
import { createEmptyRunSnapshot, reduceRun, reduceRunEvents } from './run-reducer.ts';
import { APPROVAL_RUN, approvalRunEvents } from './test-support/approval-run.ts';
import { eventFactory, eventTimestampAt as ts } from './test-support/events.ts';
import { deepFreeze } from '../../../test/support/deep-freeze.ts';

const RUN = 'run_01HTABLE';
const SES = 'ses_01GTABLE';
const f = eventFactory(RUN, SES);

interface ReducerCase {
  title: string;
  state: RunSnapshot;
  event: EventEnvelope;
  expected: RunSnapshot;
}

/** The snapshot after `seq` events of the table's run (first event at ts(1)), with `overrides`. */
function stateAt(seq: number, overrides: Partial<RunSnapshot> = {}): RunSnapshot {
  return {
    ...createEmptyRunSnapshot(RUN, SES),
    lastSeq: seq,
    resumeCursor: String(seq),
    createdAt: seq === 0 ? null : ts(1),
    updatedAt: seq === 0 ? null : ts(seq),
    ...overrides,
  };
}

const agent = { agentId: 'agt_12', versionId: 'agv_34' };
const userMessage: SnapshotMessage = {
  messageId: 'msg_u1',
  role: 'user',
  content: 'Hi',
  status: 'complete',
  runId: RUN,
  seq: 1,
  createdAt: ts(1),
};
const assistantStreaming: SnapshotMessage = {
  messageId: 'msg_a1',
  role: 'assistant',
  content: 'Hel',
  status: 'streaming',
  runId: RUN,
  seq: 3,
  createdAt: ts(3),
};
const reasoningStreaming: SnapshotMessage = {
  messageId: 'msg_r1',
  role: 'reasoning',
  content: 'Think',
  status: 'streaming',
  runId: RUN,
  seq: 3,
  createdAt: ts(3),
};
const toolStreaming: SnapshotToolCall = {
  toolCallId: 'tc_1',
  name: 'drafts.delete',
  runId: RUN,
  seq: 2,
  status: 'streaming_args',
  argsText: '{"id":',
};
const toolPending: SnapshotToolCall = {
  toolCallId: 'tc_1',
  name: 'drafts.delete',
  runId: RUN,
  seq: 2,
  status: 'pending',
  argsText: '{"id":42}',
  args: { id: 42 },
  argsDigest: 'sha256:AbC',
};
const toolAwaiting: SnapshotToolCall = { ...toolPending, status: 'awaiting_approval' };
const shownWidget: Widget = {
  widgetId: 'order-1',
  revision: 1,
  digest: 'sha256:shown',
  root: { type: 'badge', text: 'Shipped' },
};
const updatedWidget: Widget = {
  ...shownWidget,
  revision: 2,
  digest: 'sha256:updated',
  root: { type: 'badge', text: 'Delivered' },
};
const EXPIRES = '2026-11-29T13:42:00.000Z';
const browserPending: SnapshotToolCall = { ...toolPending, executor: { kind: 'browser' } };
const browserDispatched: SnapshotToolCall = {
  ...toolPending,
  status: 'awaiting_executor',
  executor: { kind: 'browser', expiresAt: EXPIRES },
};
const browserClaimed: SnapshotToolCall = {
  ...browserDispatched,
  executor: { ...browserDispatched.executor!, executorId: 'exe_1', grantDigest: 'sha256:G' },
};
const browserAccepted: SnapshotToolCall = {
  ...browserClaimed,
  status: 'running',
  executor: { ...browserClaimed.executor!, receiptSequence: 0, acceptedAt: ts(7) },
};
const openInterrupt: SnapshotInterrupt = {
  id: 'int_1',
  reason: 'tool_call',
  toolCallId: 'tc_1',
  argsDigest: 'sha256:AbC',
  message: 'Delete draft 42?',
  expiresAt: '2026-11-29T13:55:00.000Z',
  state: 'open',
  runId: RUN,
  seq: 4,
};
const awaitingApproval = stateAt(4, {
  status: 'awaiting_input',
  toolCalls: [toolAwaiting],
  interrupts: [openInterrupt],
});
const usage = [{ modelId: 'm-large', inputTokens: 10, outputTokens: 5 }];

const cases: ReducerCase[] = [
  {
    title: 'RUN_STARTED echoes the user message with its clientMessageId and contextRefs',
    state: stateAt(0),
    event: f.at(1, 'RUN_STARTED', {
      protocolVersion: '1.0',
      agent,
      model: { modelId: 'm-large', reasoningEffort: 'low' },
      input: {
        messageId: 'msg_u1',
        clientMessageId: 'cm_1',
        content: [
          { type: 'text', text: 'Delete ' },
          { type: 'text', text: 'draft 42' },
        ],
        contextRefs: [{ ref: 'doc:42', title: 'Draft 42' }],
      },
      traceId: 'trace_1',
    }),
    expected: stateAt(1, {
      agent,
      model: { modelId: 'm-large', reasoningEffort: 'low' },
      traceId: 'trace_1',
      messages: [
        {
          messageId: 'msg_u1',
          role: 'user',
          content: 'Delete draft 42',
          status: 'complete',
          runId: RUN,
          seq: 1,
          createdAt: ts(1),
          clientMessageId: 'cm_1',
          contextRefs: [{ ref: 'doc:42', title: 'Draft 42' }],
        },
      ],
    }),
  },
  {
    title: 'RUN_STARTED without optional fields leaves model and traceId null',
    state: stateAt(0),
    event: f.at(1, 'RUN_STARTED', {
      protocolVersion: '1.0',
      agent,
      input: { messageId: 'msg_u1', content: [{ type: 'text', text: 'Hi' }] },
    }),
    expected: stateAt(1, { agent, messages: [userMessage] }),
  },
  {
    title: 'RUN_STATUS_CHANGED moves queued to running',
    state: stateAt(1, { messages: [userMessage] }),
    event: f.at(2, 'RUN_STATUS_CHANGED', { status: 'running' }),
    expected: stateAt(2, { status: 'running', messages: [userMessage] }),
  },
  {
    title: 'RUN_STATUS_CHANGED moves running to cancelling',
    state: stateAt(4, { status: 'running' }),
    event: f.at(5, 'RUN_STATUS_CHANGED', { status: 'cancelling', reason: 'user' }),
    expected: stateAt(5, { status: 'cancelling' }),
  },
  {
    title: 'RUN_STATUS_CHANGED after a terminal status is absorbed (only the cursor moves)',
    state: stateAt(4, { status: 'completed', outcome: { type: 'success' } }),
    event: f.at(5, 'RUN_STATUS_CHANGED', { status: 'running' }),
    expected: stateAt(5, { status: 'completed', outcome: { type: 'success' } }),
  },
  {
    title: 'STEP_STARTED sets the step and marks exactly the consumed inputs',
    state: stateAt(4, {
      status: 'running',
      inputs: [
        { inputId: 'inp_1', messageId: 'msg_u2', state: 'pending' },
        { inputId: 'inp_2', messageId: 'msg_u3', clientMessageId: 'cm_3', state: 'pending' },
      ],
    }),
    event: f.at(5, 'STEP_STARTED', { stepName: 'round:2', consumedInputIds: ['inp_1'] }),
    expected: stateAt(5, {
      status: 'running',
      step: 'round:2',
      inputs: [
        { inputId: 'inp_1', messageId: 'msg_u2', state: 'consumed' },
        { inputId: 'inp_2', messageId: 'msg_u3', clientMessageId: 'cm_3', state: 'pending' },
      ],
    }),
  },
  {
    title: 'STEP_STARTED without consumedInputIds only sets the step',
    state: stateAt(2, { status: 'running' }),
    event: f.at(3, 'STEP_STARTED', { stepName: 'round:1' }),
    expected: stateAt(3, { status: 'running', step: 'round:1' }),
  },
  {
    title: 'STEP_FINISHED clears the step',
    state: stateAt(4, { status: 'running', step: 'round:1' }),
    event: f.at(5, 'STEP_FINISHED', { stepName: 'round:1' }),
    expected: stateAt(5, { status: 'running' }),
  },
  {
    title: 'TEXT_MESSAGE_START adds an empty streaming assistant message',
    state: stateAt(2, { messages: [userMessage] }),
    event: f.at(3, 'TEXT_MESSAGE_START', { messageId: 'msg_a1', role: 'assistant', parentMessageId: 'msg_u1' }),
    expected: stateAt(3, {
      messages: [
        userMessage,
        {
          messageId: 'msg_a1',
          role: 'assistant',
          content: '',
          status: 'streaming',
          runId: RUN,
          seq: 3,
          createdAt: ts(3),
          parentMessageId: 'msg_u1',
        },
      ],
    }),
  },
  {
    title: 'TEXT_MESSAGE_START with role user echoes an input and records it as pending',
    state: stateAt(4, { status: 'running' }),
    event: f.at(5, 'TEXT_MESSAGE_START', {
      messageId: 'msg_u2',
      role: 'user',
      inputId: 'inp_1',
      clientMessageId: 'cm_2',
    }),
    expected: stateAt(5, {
      status: 'running',
      messages: [
        {
          messageId: 'msg_u2',
          role: 'user',
          content: '',
          status: 'streaming',
          runId: RUN,
          seq: 5,
          createdAt: ts(5),
          inputId: 'inp_1',
          clientMessageId: 'cm_2',
        },
      ],
      inputs: [{ inputId: 'inp_1', messageId: 'msg_u2', clientMessageId: 'cm_2', state: 'pending' }],
    }),
  },
  {
    title: 'TEXT_MESSAGE_CONTENT appends the delta',
    state: stateAt(4, { messages: [userMessage, assistantStreaming] }),
    event: f.at(5, 'TEXT_MESSAGE_CONTENT', { messageId: 'msg_a1', delta: 'lo' }),
    expected: stateAt(5, { messages: [userMessage, { ...assistantStreaming, content: 'Hello' }] }),
  },
  {
    title: 'TEXT_MESSAGE_CONTENT for an unknown message only moves the cursor',
    state: stateAt(4, { messages: [userMessage] }),
    event: f.at(5, 'TEXT_MESSAGE_CONTENT', { messageId: 'msg_nope', delta: 'x' }),
    expected: stateAt(5, { messages: [userMessage] }),
  },
  {
    title: 'TEXT_MESSAGE_END without a finishReason completes the message',
    state: stateAt(4, { messages: [assistantStreaming] }),
    event: f.at(5, 'TEXT_MESSAGE_END', { messageId: 'msg_a1' }),
    expected: stateAt(5, { messages: [{ ...assistantStreaming, status: 'complete' }] }),
  },
  {
    title: 'TEXT_MESSAGE_END stop completes the message and keeps the reason',
    state: stateAt(4, { messages: [assistantStreaming] }),
    event: f.at(5, 'TEXT_MESSAGE_END', { messageId: 'msg_a1', finishReason: 'stop' }),
    expected: stateAt(5, { messages: [{ ...assistantStreaming, status: 'complete', finishReason: 'stop' }] }),
  },
  {
    title: 'TEXT_MESSAGE_END cancelled marks the message cancelled',
    state: stateAt(4, { messages: [assistantStreaming] }),
    event: f.at(5, 'TEXT_MESSAGE_END', { messageId: 'msg_a1', finishReason: 'cancelled' }),
    expected: stateAt(5, { messages: [{ ...assistantStreaming, status: 'cancelled', finishReason: 'cancelled' }] }),
  },
  {
    title: 'TEXT_MESSAGE_END error marks the message as an error',
    state: stateAt(4, { messages: [assistantStreaming] }),
    event: f.at(5, 'TEXT_MESSAGE_END', { messageId: 'msg_a1', finishReason: 'error' }),
    expected: stateAt(5, { messages: [{ ...assistantStreaming, status: 'error', finishReason: 'error' }] }),
  },
  {
    title: 'REASONING_START only moves the cursor (the message starts with REASONING_MESSAGE_START)',
    state: stateAt(2, { status: 'running' }),
    event: f.at(3, 'REASONING_START', { messageId: 'msg_r1' }),
    expected: stateAt(3, { status: 'running' }),
  },
  {
    title: 'REASONING_MESSAGE_START adds an empty streaming reasoning message',
    state: stateAt(2, { messages: [userMessage] }),
    event: f.at(3, 'REASONING_MESSAGE_START', { messageId: 'msg_r1', role: 'reasoning' }),
    expected: stateAt(3, { messages: [userMessage, { ...reasoningStreaming, content: '' }] }),
  },
  {
    title: 'REASONING_MESSAGE_CONTENT appends the delta',
    state: stateAt(4, { messages: [reasoningStreaming] }),
    event: f.at(5, 'REASONING_MESSAGE_CONTENT', { messageId: 'msg_r1', delta: 'ing' }),
    expected: stateAt(5, { messages: [{ ...reasoningStreaming, content: 'Thinking' }] }),
  },
  {
    title: 'REASONING_MESSAGE_END completes the reasoning message',
    state: stateAt(4, { messages: [reasoningStreaming] }),
    event: f.at(5, 'REASONING_MESSAGE_END', { messageId: 'msg_r1' }),
    expected: stateAt(5, { messages: [{ ...reasoningStreaming, status: 'complete' }] }),
  },
  {
    title: 'REASONING_END closes a reasoning message still streaming (closure before a terminal)',
    state: stateAt(4, { messages: [reasoningStreaming] }),
    event: f.at(5, 'REASONING_END', { messageId: 'msg_r1' }),
    expected: stateAt(5, { messages: [{ ...reasoningStreaming, status: 'complete' }] }),
  },
  {
    title: 'REASONING_END after REASONING_MESSAGE_END leaves the message as it is',
    state: stateAt(4, { messages: [{ ...reasoningStreaming, status: 'complete' }] }),
    event: f.at(5, 'REASONING_END', { messageId: 'msg_r1' }),
    expected: stateAt(5, { messages: [{ ...reasoningStreaming, status: 'complete' }] }),
  },
  {
    title: 'TOOL_CALL_START adds a tool call streaming its arguments',
    state: stateAt(4, { status: 'running' }),
    event: f.at(5, 'TOOL_CALL_START', {
      toolCallId: 'tc_1',
      toolCallName: 'drafts.delete',
      parentMessageId: 'msg_a1',
      title: 'Delete a draft',
    }),
    expected: stateAt(5, {
      status: 'running',
      toolCalls: [
        {
          toolCallId: 'tc_1',
          name: 'drafts.delete',
          status: 'streaming_args',
          runId: RUN,
          seq: 5,
          parentMessageId: 'msg_a1',
          title: 'Delete a draft',
        },
      ],
    }),
  },
  {
    title: 'TOOL_CALL_ARGS starts the raw argument text',
    state: stateAt(4, {
      toolCalls: [{ toolCallId: 'tc_1', name: 'drafts.delete', status: 'streaming_args', runId: RUN, seq: 2 }],
    }),
    event: f.at(5, 'TOOL_CALL_ARGS', { toolCallId: 'tc_1', delta: '{"id":' }),
    expected: stateAt(5, { toolCalls: [toolStreaming] }),
  },
  {
    title: 'TOOL_CALL_ARGS appends to the raw argument text',
    state: stateAt(4, { toolCalls: [toolStreaming] }),
    event: f.at(5, 'TOOL_CALL_ARGS', { toolCallId: 'tc_1', delta: '42}' }),
    expected: stateAt(5, { toolCalls: [{ ...toolStreaming, argsText: '{"id":42}' }] }),
  },
  {
    title: 'TOOL_CALL_END sets the parsed args and digest and makes the call pending',
    state: stateAt(4, { toolCalls: [{ ...toolStreaming, argsText: '{"id":42}' }] }),
    event: f.at(5, 'TOOL_CALL_END', { toolCallId: 'tc_1', args: { id: 42 }, argsDigest: 'sha256:AbC' }),
    expected: stateAt(5, { toolCalls: [toolPending] }),
  },
  {
    title: 'TOOL_CALL_PROGRESS marks the call running with the latest progress',
    state: stateAt(4, { toolCalls: [{ ...toolPending, status: 'running', progress: { message: 'Starting' } }] }),
    event: f.at(5, 'TOOL_CALL_PROGRESS', { toolCallId: 'tc_1', fraction: 0.25 }),
    expected: stateAt(5, { toolCalls: [{ ...toolPending, status: 'running', progress: { fraction: 0.25 } }] }),
  },
  {
    title: 'TOOL_CALL_RESULT sets the final status and the result',
    state: stateAt(4, { toolCalls: [{ ...toolPending, status: 'running' }] }),
    event: f.at(5, 'TOOL_CALL_RESULT', {
      toolCallId: 'tc_1',
      messageId: 'msg_t1',
      content: '{"deleted":',
      status: 'completed',
      truncated: true,
    }),
    expected: stateAt(5, {
      toolCalls: [
        {
          ...toolPending,
          status: 'completed',
          result: { messageId: 'msg_t1', content: '{"deleted":', truncated: true },
        },
      ],
    }),
  },
  {
    title: 'WIDGET_UPDATED replaces the widget on the call’s result, keeping the rest of the result',
    state: stateAt(4, {
      toolCalls: [
        { ...toolPending, status: 'completed', result: { messageId: 'msg_t1', content: 'shown', widget: shownWidget } },
      ],
    }),
    event: f.at(5, 'WIDGET_UPDATED', { toolCallId: 'tc_1', widget: updatedWidget }),
    expected: stateAt(5, {
      toolCalls: [
        {
          ...toolPending,
          status: 'completed',
          result: { messageId: 'msg_t1', content: 'shown', widget: updatedWidget },
        },
      ],
    }),
  },
  {
    title: 'TOOL_CALL_RESULT denied after a deny',
    state: stateAt(4, { toolCalls: [toolPending] }),
    event: f.at(5, 'TOOL_CALL_RESULT', {
      toolCallId: 'tc_1',
      messageId: 'msg_t1',
      content: 'Denied by the user.',
      status: 'denied',
    }),
    expected: stateAt(5, {
      toolCalls: [
        { ...toolPending, status: 'denied', result: { messageId: 'msg_t1', content: 'Denied by the user.' } },
      ],
    }),
  },
  {
    title: 'TOOL_CALL_START of a browser tool marks its executor kind',
    state: stateAt(4),
    event: f.at(5, 'TOOL_CALL_START', { toolCallId: 'tc_b', toolCallName: 'cart.add', executorKind: 'browser' }),
    expected: stateAt(5, {
      toolCalls: [
        {
          toolCallId: 'tc_b',
          name: 'cart.add',
          status: 'streaming_args',
          runId: RUN,
          seq: 5,
          executor: { kind: 'browser' },
        },
      ],
    }),
  },
  {
    title: 'TOOL_CALL_DISPATCHED makes a browser call await its executor until expiresAt',
    state: stateAt(4, { toolCalls: [browserPending] }),
    event: f.at(5, 'TOOL_CALL_DISPATCHED', { toolCallId: 'tc_1', executorKind: 'browser', expiresAt: EXPIRES }),
    expected: stateAt(5, { toolCalls: [browserDispatched] }),
  },
  {
    title: 'TOOL_CALL_CLAIMED records the executor and the grant digest',
    state: stateAt(5, { toolCalls: [browserDispatched] }),
    event: f.at(6, 'TOOL_CALL_CLAIMED', { toolCallId: 'tc_1', executorId: 'exe_1', grantDigest: 'sha256:G' }),
    expected: stateAt(6, { toolCalls: [browserClaimed] }),
  },
  {
    title: 'TOOL_CALL_RELEASED drops the claim',
    state: stateAt(6, { toolCalls: [browserClaimed] }),
    event: f.at(7, 'TOOL_CALL_RELEASED', { toolCallId: 'tc_1', executorId: 'exe_1', reason: 'executor_lost' }),
    expected: stateAt(7, { toolCalls: [browserDispatched] }),
  },
  {
    title: 'TOOL_CALL_RECEIPT accepted starts the call',
    state: stateAt(6, { toolCalls: [browserClaimed] }),
    event: f.at(7, 'TOOL_CALL_RECEIPT', {
      toolCallId: 'tc_1',
      executorId: 'exe_1',
      receiptId: 'r0',
      sequence: 0,
      kind: 'accepted',
    }),
    expected: stateAt(7, { toolCalls: [browserAccepted] }),
  },
  {
    title: 'TOOL_CALL_RECEIPT progress sets the progress and the applied sequence',
    state: stateAt(7, { toolCalls: [browserAccepted] }),
    event: f.at(8, 'TOOL_CALL_RECEIPT', {
      toolCallId: 'tc_1',
      executorId: 'exe_1',
      receiptId: 'r1',
      sequence: 1,
      kind: 'progress',
      message: 'Adding',
      fraction: 0.5,
    }),
    expected: stateAt(8, {
      toolCalls: [
        {
          ...browserAccepted,
          progress: { message: 'Adding', fraction: 0.5 },
          executor: { ...browserAccepted.executor!, receiptSequence: 1 },
        },
      ],
    }),
  },
  {
    title: 'TOOL_CALL_RECEIPT completed keeps the outcome for the engine; the call stays running until its result',
    state: stateAt(7, { toolCalls: [browserAccepted] }),
    event: f.at(8, 'TOOL_CALL_RECEIPT', {
      toolCallId: 'tc_1',
      executorId: 'exe_1',
      receiptId: 'r2',
      sequence: 2,
      kind: 'completed',
      content: '{"added":true}',
    }),
    expected: stateAt(8, {
      toolCalls: [
        {
          ...browserAccepted,
          executor: {
            ...browserAccepted.executor!,
            receiptSequence: 2,
            outcome: { kind: 'completed', receiptId: 'r2', content: '{"added":true}' },
          },
        },
      ],
    }),
  },
  {
    title: 'TOOL_CALL_REPORTED reconciliation_required marks the call for reconciliation',
    state: stateAt(7, { toolCalls: [browserAccepted] }),
    event: f.at(8, 'TOOL_CALL_REPORTED', { toolCallId: 'tc_1', executorId: 'exe_1', code: 'reconciliation_required' }),
    expected: stateAt(8, {
      toolCalls: [{ ...browserAccepted, executor: { ...browserAccepted.executor!, reconciliation: 'required' } }],
    }),
  },
  {
    title: 'INTERRUPT_REQUESTED for a tool call opens the interrupt and makes the tool await approval',
    state: stateAt(3, { status: 'running', toolCalls: [toolPending] }),
    event: f.at(4, 'INTERRUPT_REQUESTED', {
      interrupt: {
        id: 'int_1',
        reason: 'tool_call',
        toolCallId: 'tc_1',
        argsDigest: 'sha256:AbC',
        message: 'Delete draft 42?',
        expiresAt: '2026-11-29T13:55:00.000Z',
      },
    }),
    expected: stateAt(4, { status: 'running', toolCalls: [toolAwaiting], interrupts: [openInterrupt] }),
  },
  {
    title: 'INTERRUPT_REQUESTED without a tool call only opens the interrupt',
    state: stateAt(4, { status: 'running' }),
    event: f.at(5, 'INTERRUPT_REQUESTED', {
      interrupt: { id: 'int_2', reason: 'input_required', responseSchema: { type: 'object' } },
    }),
    expected: stateAt(5, {
      status: 'running',
      interrupts: [
        {
          id: 'int_2',
          reason: 'input_required',
          responseSchema: { type: 'object' },
          state: 'open',
          runId: RUN,
          seq: 5,
        },
      ],
    }),
  },
  {
    title: 'INTERRUPT_RESOLVED allow resolves the interrupt and sets the tool running',
    state: awaitingApproval,
    event: f.at(5, 'INTERRUPT_RESOLVED', {
      interruptId: 'int_1',
      status: 'resolved',
      decision: 'allow',
      resolvedBy: 'user',
    }),
    expected: stateAt(5, {
      status: 'awaiting_input',
      toolCalls: [{ ...toolPending, status: 'running' }],
      interrupts: [{ ...openInterrupt, state: 'resolved', resolvedBy: 'user', decision: 'allow' }],
    }),
  },
  {
    title: 'INTERRUPT_RESOLVED deny resolves the interrupt and returns the tool to pending for its denied result',
    state: awaitingApproval,
    event: f.at(5, 'INTERRUPT_RESOLVED', {
      interruptId: 'int_1',
      status: 'resolved',
      decision: 'deny',
      resolvedBy: 'user',
    }),
    expected: stateAt(5, {
      status: 'awaiting_input',
      toolCalls: [toolPending],
      interrupts: [{ ...openInterrupt, state: 'resolved', resolvedBy: 'user', decision: 'deny' }],
    }),
  },
  {
    title: 'INTERRUPT_RESOLVED expired fails closed as a deny by timeout',
    state: awaitingApproval,
    event: f.at(5, 'INTERRUPT_RESOLVED', {
      interruptId: 'int_1',
      status: 'expired',
      decision: 'deny',
      resolvedBy: 'timeout',
    }),
    expected: stateAt(5, {
      status: 'awaiting_input',
      toolCalls: [toolPending],
      interrupts: [{ ...openInterrupt, state: 'expired', resolvedBy: 'timeout', decision: 'deny' }],
    }),
  },
  {
    title: 'INTERRUPT_RESOLVED cancelled closes the interrupt without a decision',
    state: awaitingApproval,
    event: f.at(5, 'INTERRUPT_RESOLVED', { interruptId: 'int_1', status: 'cancelled', resolvedBy: 'cancel' }),
    expected: stateAt(5, {
      status: 'awaiting_input',
      toolCalls: [toolPending],
      interrupts: [{ ...openInterrupt, state: 'cancelled', resolvedBy: 'cancel' }],
    }),
  },
  {
    title: 'INTERRUPT_RESOLVED keeps an edited-arguments digest',
    state: awaitingApproval,
    event: f.at(5, 'INTERRUPT_RESOLVED', {
      interruptId: 'int_1',
      status: 'resolved',
      decision: 'allow',
      editedArgsDigest: 'sha256:XyZ',
      resolvedBy: 'user',
    }),
    expected: stateAt(5, {
      status: 'awaiting_input',
      toolCalls: [{ ...toolPending, status: 'running' }],
      interrupts: [
        { ...openInterrupt, state: 'resolved', resolvedBy: 'user', decision: 'allow', editedArgsDigest: 'sha256:XyZ' },
      ],
    }),
  },
  {
    title: 'INTERRUPT_RESOLVED for an unknown interrupt only moves the cursor',
    state: awaitingApproval,
    event: f.at(5, 'INTERRUPT_RESOLVED', {
      interruptId: 'int_nope',
      status: 'resolved',
      decision: 'allow',
      resolvedBy: 'user',
    }),
    expected: stateAt(5, { status: 'awaiting_input', toolCalls: [toolAwaiting], interrupts: [openInterrupt] }),
  },
  {
    title: 'MESSAGE_DISCARDED removes the message',
    state: stateAt(4, { messages: [userMessage, assistantStreaming] }),
    event: f.at(5, 'MESSAGE_DISCARDED', { messageId: 'msg_a1', reason: 'attempt_retry' }),
    expected: stateAt(5, { messages: [userMessage] }),
  },
  {
    title: 'NOTICE is appended to the notices',
    state: stateAt(4, { notices: [{ level: 'info', code: 'MODEL_RETRY', message: 'Retrying.' }] }),
    event: f.at(5, 'NOTICE', { level: 'warning', code: 'BUDGET_80', message: '80% of the budget is used.' }),
    expected: stateAt(5, {
      notices: [
        { level: 'info', code: 'MODEL_RETRY', message: 'Retrying.' },
        { level: 'warning', code: 'BUDGET_80', message: '80% of the budget is used.' },
      ],
    }),
  },
  {
    title: 'CUSTOM only moves the cursor',
    state: stateAt(4, { status: 'running', messages: [userMessage] }),
    event: f.at(5, 'CUSTOM', { name: 'hook.completed', value: { ok: true } }),
    expected: stateAt(5, { status: 'running', messages: [userMessage] }),
  },
  {
    title: 'MESSAGES_SNAPSHOT (reserved) only moves the cursor',
    state: stateAt(4, { messages: [userMessage] }),
    event: f.at(5, 'MESSAGES_SNAPSHOT', { messages: [] }),
    expected: stateAt(5, { messages: [userMessage] }),
  },
  {
    title: 'STATE_SNAPSHOT (reserved) only moves the cursor',
    state: stateAt(4),
    event: f.at(5, 'STATE_SNAPSHOT', { snapshot: { a: 1 } }),
    expected: stateAt(5),
  },
  {
    title: 'STATE_DELTA (reserved) only moves the cursor',
    state: stateAt(4),
    event: f.at(5, 'STATE_DELTA', { delta: [{ op: 'add', path: '/a', value: 1 }] }),
    expected: stateAt(5),
  },
  {
    title: 'an unknown event type only moves the cursor',
    state: stateAt(4, { status: 'running' }),
    event: {
      ...f.at(5, 'CUSTOM', { name: 'x', value: null }),
      type: 'FUTURE_EVENT',
      data: { anything: 1 },
    } as unknown as EventEnvelope,
    expected: stateAt(5, { status: 'running' }),
  },
  {
    title: 'RUN_FINISHED success completes the run with usage and cost',
    state: stateAt(4, { status: 'running', step: 'round:2' }),
    event: f.at(5, 'RUN_FINISHED', { outcome: { type: 'success' }, usage, costUsd: '0.004100000000' }),
    expected: stateAt(5, { status: 'completed', outcome: { type: 'success' }, usage, costUsd: '0.004100000000' }),
  },
  {
    title: 'RUN_FINISHED cancelled ends the run cancelled and lists unconsumed inputs',
    state: stateAt(4, {
      status: 'cancelling',
      step: 'round:1',
      inputs: [{ inputId: 'inp_1', messageId: 'msg_u2', state: 'pending' }],
    }),
    event: f.at(5, 'RUN_FINISHED', {
      outcome: { type: 'cancelled', reason: 'user', forced: true },
      unconsumedInputIds: ['inp_1'],
    }),
    expected: stateAt(5, {
      status: 'cancelled',
      outcome: { type: 'cancelled', reason: 'user', forced: true },
      inputs: [{ inputId: 'inp_1', messageId: 'msg_u2', state: 'pending' }],
      unconsumedInputIds: ['inp_1'],
    }),
  },
  {
    title: 'RUN_ERROR fails the run with a safe error',
    state: stateAt(4, { status: 'running', step: 'round:1' }),
    event: f.at(5, 'RUN_ERROR', {
      code: 'MODEL_ERROR',
      message: 'The model failed.',
      retryable: true,
      correlationId: 'req_9',
      usage,
      costUsd: '0.001000000000',
    }),
    expected: stateAt(5, {
      status: 'failed',
      error: { code: 'MODEL_ERROR', message: 'The model failed.', retryable: true, correlationId: 'req_9' },
      usage,
      costUsd: '0.001000000000',
    }),
  },
  {
    title: 'RUN_ERROR RUN_TIMEOUT expires the run',
    state: stateAt(4, { status: 'awaiting_input' }),
    event: f.at(5, 'RUN_ERROR', {
      code: 'RUN_TIMEOUT',
      message: 'The run took too long.',
      retryable: false,
      unconsumedInputIds: ['inp_2'],
    }),
    expected: stateAt(5, {
      status: 'expired',
      error: { code: 'RUN_TIMEOUT', message: 'The run took too long.', retryable: false },
      unconsumedInputIds: ['inp_2'],
    }),
  },
];

describe('reduceRun', () => {
  // The server's fold: the run reducer and, after it, the executor events of browser tools.
  it.each(cases)('$title', ({ state, event, expected }) => {
    const next = reduceRun(deepFreeze(state), deepFreeze(event), foldExecutorEvents);
    expect(next).toStrictEqual(expected);
  });

  it('without foldExecutorEvents (a page without browser tools) the executor events only advance the cursor', () => {
    const start = f.at(4, 'TOOL_CALL_START', { toolCallId: 'tc_2', toolCallName: 'cart.add', executorKind: 'browser' });
    const started = reduceRun(stateAt(3, {}), start);
    expect(started.toolCalls).toStrictEqual([
      { toolCallId: 'tc_2', name: 'cart.add', status: 'streaming_args', runId: RUN, seq: 4 },
    ]);
    const state = deepFreeze(stateAt(4, { toolCalls: [browserPending] }));
    const dispatched = f.at(5, 'TOOL_CALL_DISPATCHED', {
      toolCallId: 'tc_1',
      executorKind: 'browser',
      expiresAt: EXPIRES,
    });
    const next = reduceRun(state, dispatched);
    expect(next).toStrictEqual({ ...state, lastSeq: 5, resumeCursor: '5', updatedAt: dispatched.timestamp });
    expect(next.toolCalls).toBe(state.toolCalls);
  });

  it('has a case for every event type of the protocol', () => {
    const covered = new Set<string>(cases.map((c) => c.event.type));
    expect(EVENT_TYPES.filter((type) => !covered.has(type))).toStrictEqual([]);
  });

  it('returns the same object for an event with seq <= lastSeq', () => {
    const state = deepFreeze(stateAt(5, { status: 'running', messages: [assistantStreaming] }));
    expect(reduceRun(state, f.at(5, 'TEXT_MESSAGE_CONTENT', { messageId: 'msg_a1', delta: 'x' }))).toBe(state);
    expect(reduceRun(state, f.at(2, 'RUN_STATUS_CHANGED', { status: 'completed' }))).toBe(state);
  });

  it('returns the same object for an event of another run', () => {
    const state = deepFreeze(stateAt(5, { status: 'running' }));
    const foreign = eventFactory('run_other', SES).at(6, 'RUN_STATUS_CHANGED', { status: 'cancelling' });
    expect(reduceRun(state, foreign)).toBe(state);
  });

  it('keeps createdAt at the first applied event', () => {
    const first = reduceRun(createEmptyRunSnapshot(RUN, SES), f.at(1, 'RUN_STATUS_CHANGED', { status: 'running' }));
    const second = reduceRun(first, f.at(2, 'STEP_STARTED', { stepName: 'round:1' }));
    expect([first.createdAt, first.updatedAt, second.createdAt, second.updatedAt]).toStrictEqual([
      ts(1),
      ts(1),
      ts(1),
      ts(2),
    ]);
  });
});

describe('createEmptyRunSnapshot', () => {
  it('is the state before the first event', () => {
    expect(createEmptyRunSnapshot(RUN, SES)).toStrictEqual({
      runId: RUN,
      sessionId: SES,
      status: 'queued',
      agent: null,
      model: null,
      lastSeq: 0,
      resumeCursor: '0',
      messages: [],
      toolCalls: [],
      interrupts: [],
      inputs: [],
      notices: [],
      step: null,
      usage: null,
      costUsd: null,
      outcome: null,
      error: null,
      unconsumedInputIds: [],
      traceId: null,
      createdAt: null,
      updatedAt: null,
    });
  });
});

describe('reduceRunEvents over a recorded approval run', () => {
  const events = deepFreeze(approvalRunEvents());
  const { runId, sessionId, argsDigest } = APPROVAL_RUN;
  const full = reduceRunEvents(events);
  /** What `GET /runs/{id}` serves after k events (k = 0 is the empty run, which has a known id). */
  const snapshotAt = (k: number): RunSnapshot =>
    deepFreeze(reduceRunEvents(events.slice(0, k), createEmptyRunSnapshot(runId, sessionId)));

  it('folds the whole log into the exact final snapshot', () => {
    expect(full).toStrictEqual({
      runId,
      sessionId,
      status: 'completed',
      agent: { agentId: 'agt_12', versionId: 'agv_34' },
      model: { modelId: 'm-large', reasoningEffort: 'medium' },
      lastSeq: 39,
      resumeCursor: '39',
      messages: [
        {
          messageId: 'msg_u1',
          role: 'user',
          content: 'Delete draft 42',
          status: 'complete',
          runId,
          seq: 1,
          createdAt: ts(1),
          clientMessageId: 'cm_7Q',
          contextRefs: [{ ref: 'doc:42', title: 'Draft 42' }],
        },
        {
          messageId: 'msg_r1',
          role: 'reasoning',
          content: 'The user wants draft 42 removed.',
          status: 'complete',
          runId,
          seq: 5,
          createdAt: ts(5),
        },
        {
          messageId: 'msg_a1',
          role: 'assistant',
          content: "I'll delete draft 42.",
          status: 'complete',
          runId,
          seq: 10,
          createdAt: ts(10),
          finishReason: 'tool_calls',
        },
        {
          messageId: 'msg_u2',
          role: 'user',
          content: 'Also archive draft 43',
          status: 'complete',
          runId,
          seq: 23,
          createdAt: ts(23),
          inputId: 'inp_1',
          clientMessageId: 'cm_8R',
        },
        {
          messageId: 'msg_a2',
          role: 'assistant',
          content: 'Done: draft 42 is deleted. I cannot archive drafts.',
          status: 'complete',
          runId,
          seq: 34,
          createdAt: ts(34),
          finishReason: 'stop',
        },
      ],
      toolCalls: [
        {
          toolCallId: 'tc_1',
          name: 'drafts.delete',
          status: 'completed',
          runId,
          seq: 14,
          parentMessageId: 'msg_a1',
          title: 'Delete a draft',
          argsText: '{"id":42}',
          args: { id: 42 },
          argsDigest,
          progress: { message: 'Deleting', fraction: 0.5 },
          result: { messageId: 'msg_t1', content: '{"deleted":true}' },
        },
      ],
      interrupts: [
        {
          id: 'int_1',
          reason: 'tool_call',
          toolCallId: 'tc_1',
          argsDigest,
          message: 'Delete draft 42?',
          expiresAt: '2026-11-29T13:55:00.000Z',
          state: 'resolved',
          runId,
          seq: 18,
          resolvedBy: 'user',
          decision: 'allow',
        },
      ],
      inputs: [{ inputId: 'inp_1', messageId: 'msg_u2', clientMessageId: 'cm_8R', state: 'consumed' }],
      notices: [{ level: 'info', code: 'MODEL_RETRY', message: 'The model stalled; retrying.' }],
      step: null,
      usage: [{ modelId: 'm-large', inputTokens: 812, outputTokens: 96, reasoningTokens: 40 }],
      costUsd: '0.004100000000',
      outcome: { type: 'success' },
      error: null,
      unconsumedInputIds: [],
      traceId: 'trace_abc',
      createdAt: ts(1),
      updatedAt: ts(39),
    });
  });

  it('shows the open approval while the run waits (after seq 19)', () => {
    const { status, toolCalls, interrupts } = snapshotAt(19);
    expect({
      status,
      toolStatus: toolCalls.map((c) => c.status),
      interruptState: interrupts.map((i) => i.state),
    }).toStrictEqual({
      status: 'awaiting_input',
      toolStatus: ['awaiting_approval'],
      interruptState: ['open'],
    });
  });

  it('gives the same state for every cut: snapshot(k) + events after k = all events', () => {
    for (let k = 0; k <= events.length; k += 1) {
      expect(reduceRunEvents(events.slice(k), snapshotAt(k)), `cut at ${k}`).toStrictEqual(full);
    }
  });

  it('ignores an overlapping replay of events k-3..N on top of snapshot(k)', () => {
    for (let k = 0; k <= events.length; k += 1) {
      const snapshot = snapshotAt(k);
      const overlapStart = Math.max(0, k - 3);
      expect(reduceRunEvents(events.slice(overlapStart, k), snapshot), `overlap only at ${k}`).toBe(snapshot);
      expect(reduceRunEvents(events.slice(overlapStart), snapshot), `overlap and tail at ${k}`).toStrictEqual(full);
    }
  });

  it('infers the run from the first event when no initial snapshot is given', () => {
    for (let k = 1; k <= events.length; k += 1) {
      expect(reduceRunEvents(events.slice(0, k)), `prefix ${k}`).toStrictEqual(snapshotAt(k));
    }
  });

  it('returns an anonymous empty snapshot for no events and no initial snapshot', () => {
    expect(reduceRunEvents([])).toStrictEqual(createEmptyRunSnapshot('', ''));
  });
});
