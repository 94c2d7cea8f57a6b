import { describe, expect, it } from 'vitest';
import type {
  BootstrapResponse,
  HistoryInterrupt,
  HistoryToolCall,
  RunSnapshot,
  SnapshotMessage,
} from '../protocol.ts';
import { createEmptyRunSnapshot, reduceRun } from '../state/run-reducer.ts';
import { eventFactory } from '../state/test-support/events.ts';
import type { ClientAction, ClientActionType } from './client-actions.ts';
import { createInitialClientModel } from './client-model.ts';
import type { ClientModel } from './client-model.ts';
import { reduceClient } from './client-reducer.ts';
import type { ClientError, ClientExtension } from './client-state.ts';
import { deepFreeze } from '../../../test/support/deep-freeze.ts';

const RUN = 'run_01CLIENT';
const SES = 'ses_01CLIENT';
const events = eventFactory(RUN, SES);

/** A model built from the initial one with `overrides`. */
function modelWith(overrides: Partial<ClientModel> = {}): ClientModel {
  return { ...createInitialClientModel(), ...overrides };
}

const BOOT = {
  protocol: { version: '1', supported: ['1'] },
  identity: { identityId: 'idn_1' },
  agent: { agentId: 'agt_1', versionId: 'agv_1', name: 'Demo', status: 'active' },
} as BootstrapResponse;
const requestError: ClientError = {
  code: 'NETWORK_ERROR',
  message: 'The network failed.',
  reference: null,
  retryable: true,
  source: 'request',
};
const streamError: ClientError = { ...requestError, code: 'NOT_FOUND', retryable: false, source: 'stream' };
const sent = { clientMessageId: 'cm_1', text: 'Hello' };
const optimistic: SnapshotMessage = {
  messageId: 'cm_1',
  clientMessageId: 'cm_1',
  role: 'user',
  content: 'Hello',
  status: 'complete',
};
const historyMessage: SnapshotMessage = {
  messageId: 'msg_h1',
  role: 'assistant',
  content: 'Earlier',
  status: 'complete',
};
const olderMessage: SnapshotMessage = { messageId: 'msg_h0', role: 'user', content: 'Earliest', status: 'complete' };
/** A tool call the settled answer `msg_h1` made, as a history page carries it. */
const historyToolCall: HistoryToolCall = {
  toolCallId: 'tc_h1',
  name: 'orders.card',
  parentMessageId: 'msg_h1',
  status: 'completed',
  runId: 'run_00EARLIER',
};
const olderToolCall: HistoryToolCall = { ...historyToolCall, toolCallId: 'tc_h0', parentMessageId: 'msg_h0' };
const historyInterrupt: HistoryInterrupt = {
  id: 'int_h1',
  reason: 'tool_call',
  toolCallId: 'tc_h1',
  state: 'resolved',
  decision: 'allow',
  resolvedBy: 'user',
  runId: 'run_h1',
};
const olderInterrupt: HistoryInterrupt = { ...historyInterrupt, id: 'int_h0', toolCallId: 'tc_h0' };
const emptyRun = createEmptyRunSnapshot(RUN, SES);
const otherRun: RunSnapshot = createEmptyRunSnapshot('run_02OTHER', SES);
const failedRun: RunSnapshot = {
  ...emptyRun,
  status: 'failed',
  error: { code: 'MODEL_ERROR', message: 'The model failed.', retryable: true, correlationId: 'cor_9' },
};
const failedRunError: ClientError = {
  code: 'MODEL_ERROR',
  message: 'The model failed.',
  reference: 'cor_9',
  retryable: true,
  source: 'run',
  runId: RUN,
};
const runStarted = events.at(1, 'RUN_STARTED', {
  protocolVersion: '1',
  agent: { agentId: 'agt_1', versionId: 'agv_1' },
  input: { messageId: 'msg_u1', clientMessageId: 'cm_1', content: [{ type: 'text', text: 'Hello' }] },
});
const runError = events.at(1, 'RUN_ERROR', { code: 'MODEL_ERROR', message: 'The model failed.', retryable: false });
const cancelled = events.at(1, 'RUN_FINISHED', { outcome: { type: 'cancelled' } });
/** A run whose first attempt streamed reasoning and text, as the retry discards them. */
const attemptReasoning: SnapshotMessage = {
  messageId: 'msg_r1',
  role: 'reasoning',
  content: 'Thinking',
  status: 'complete',
  runId: RUN,
};
const attemptText: SnapshotMessage = {
  messageId: 'msg_a1',
  role: 'assistant',
  content: 'Half an',
  status: 'error',
  runId: RUN,
};
const attemptUser: SnapshotMessage = {
  messageId: 'msg_u1',
  role: 'user',
  content: 'Hello',
  status: 'complete',
  runId: RUN,
};
const attemptRun: RunSnapshot = {
  ...emptyRun,
  status: 'running',
  lastSeq: 7,
  resumeCursor: '7',
  messages: [attemptUser, attemptReasoning, attemptText],
};
const discardText = events.at(8, 'MESSAGE_DISCARDED', { messageId: 'msg_a1', reason: 'attempt_retry' });
const discardSuperseded = events.at(8, 'MESSAGE_DISCARDED', { messageId: 'msg_a1', reason: 'superseded' });
const retryText = events.at(8, 'TEXT_MESSAGE_CONTENT', { messageId: 'msg_a2', delta: 'Rec' });

interface ClientCase {
  title: string;
  model: ClientModel;
  action: ClientAction;
  expected: ClientModel;
}

/** A fold that leaves a visible mark, to see that (and when) the client applies an extension's fold. */
const MARKED_USAGE = [{ inputTokens: 7, outputTokens: 7 }];
const markUsage = (snapshot: RunSnapshot): RunSnapshot => ({ ...snapshot, usage: MARKED_USAGE });

/** An extension as the tool runner plugs it in. */
const EXTENSION: ClientExtension = {
  foldRunEvent: (snapshot) => snapshot,
  browserTools: [{ name: 'page.read_selection', description: 'The selection', parameters: { type: 'object' } }],
  toolRunner: { executorId: 'exe_1', calls: { tc_1: 'running' }, notes: { tc_1: 'Running in this browser' } },
};

const cases: ClientCase[] = [
  {
    title: 'reset drops everything',
    model: modelWith({
      sessionId: SES,
      runs: [emptyRun],
      bootstrap: BOOT,
      error: requestError,
      extension: {
        foldRunEvent: (snapshot) => snapshot,
        browserTools: [],
        toolRunner: { executorId: 'exe_1', calls: {}, notes: {} },
      },
    }),
    action: { type: 'reset' },
    expected: createInitialClientModel(),
  },
  {
    title: 'identityChanged drops everything and shows the error',
    model: modelWith({ sessionId: SES, runs: [emptyRun], bootstrap: BOOT, connection: 'streaming' }),
    action: { type: 'identityChanged', error: requestError },
    expected: modelWith({ error: requestError }),
  },
  {
    title: 'bootstrapped keeps an error it did not cause',
    model: modelWith({ error: requestError, connection: 'error' }),
    action: { type: 'bootstrapped', bootstrap: BOOT },
    expected: modelWith({ bootstrap: BOOT, error: requestError, connection: 'error' }),
  },
  {
    title: 'bootstrapped clears its own earlier failure',
    model: modelWith({ error: requestError, bootstrapError: requestError, connection: 'error' }),
    action: { type: 'bootstrapped', bootstrap: BOOT },
    expected: modelWith({ bootstrap: BOOT }),
  },
  {
    title: 'bootstrapFailed shows the error and stops the connection',
    model: modelWith(),
    action: { type: 'bootstrapFailed', error: requestError },
    expected: modelWith({ error: requestError, bootstrapError: requestError, connection: 'error' }),
  },
  {
    title: 'requestFailed shows the error and leaves the connection',
    model: modelWith({ connection: 'streaming' }),
    action: { type: 'requestFailed', error: requestError },
    expected: modelWith({ connection: 'streaming', error: requestError }),
  },
  {
    title: 'streamFailed shows the error and stops the connection',
    model: modelWith({ connection: 'reconnecting' }),
    action: { type: 'streamFailed', error: streamError },
    expected: modelWith({ connection: 'error', error: streamError }),
  },
  {
    title: 'streamRetried clears the error',
    model: modelWith({ connection: 'error', error: streamError }),
    action: { type: 'streamRetried' },
    expected: modelWith({ connection: 'error' }),
  },
  {
    title: 'sessionCleared drops the conversation and keeps the bootstrap',
    model: modelWith({
      connection: 'streaming',
      sessionId: SES,
      history: [historyMessage],
      runs: [emptyRun],
      followedRunId: RUN,
      pendingSend: { ...sent, status: 'failed' },
      error: requestError,
      bootstrap: BOOT,
    }),
    action: { type: 'sessionCleared' },
    expected: modelWith({ bootstrap: BOOT }),
  },
  {
    title: 'loadStarted connects',
    model: modelWith(),
    action: { type: 'loadStarted' },
    expected: modelWith({ connection: 'connecting' }),
  },
  {
    title: 'sessionLoaded without an active run replaces the transcript and goes idle',
    model: modelWith({
      connection: 'connecting',
      runs: [emptyRun],
      followedRunId: RUN,
      optimistic,
      pendingSend: { ...sent, status: 'failed' },
      error: requestError,
    }),
    action: {
      type: 'sessionLoaded',
      sessionId: SES,
      agentVersionId: 'agv_1',
      history: [historyMessage],
      historyToolCalls: [historyToolCall],
      historyInterrupts: [historyInterrupt],
      olderCursor: 'msg_h1',
      hasActiveRun: false,
    },
    expected: modelWith({
      sessionId: SES,
      agentVersionId: 'agv_1',
      history: [historyMessage],
      historyToolCalls: [historyToolCall],
      historyInterrupts: [historyInterrupt],
      olderCursor: 'msg_h1',
    }),
  },
  {
    title: 'sessionLoaded with an active run stays connecting, and ends a load of the older page before',
    model: modelWith({
      connection: 'connecting',
      sessionId: 'ses_old',
      olderCursor: 'msg_old',
      isLoadingOlderMessages: true,
    }),
    action: {
      type: 'sessionLoaded',
      sessionId: SES,
      agentVersionId: null,
      history: [],
      historyToolCalls: [],
      historyInterrupts: [],
      olderCursor: null,
      hasActiveRun: true,
    },
    expected: modelWith({ connection: 'connecting', sessionId: SES }),
  },
  {
    title: 'olderPageRequested shows the older page loading',
    model: modelWith({ sessionId: SES, history: [historyMessage], olderCursor: 'msg_h1' }),
    action: { type: 'olderPageRequested', before: 'msg_h1' },
    expected: modelWith({
      sessionId: SES,
      history: [historyMessage],
      olderCursor: 'msg_h1',
      isLoadingOlderMessages: true,
    }),
  },
  {
    title:
      'olderPageRead prepends the page, its tool calls and interrupts without showing one twice and moves the cursor',
    model: modelWith({
      sessionId: SES,
      history: [historyMessage],
      historyToolCalls: [historyToolCall],
      historyInterrupts: [historyInterrupt],
      olderCursor: 'msg_h1',
      isLoadingOlderMessages: true,
    }),
    action: {
      type: 'olderPageRead',
      before: 'msg_h1',
      page: {
        history: [olderMessage, { ...historyMessage, content: 'A stale copy' }],
        historyToolCalls: [olderToolCall, { ...historyToolCall, status: 'running' }],
        historyInterrupts: [olderInterrupt, { ...historyInterrupt, state: 'open' }],
        olderCursor: 'msg_h0',
      },
    },
    expected: modelWith({
      sessionId: SES,
      history: [olderMessage, historyMessage],
      historyToolCalls: [olderToolCall, historyToolCall],
      historyInterrupts: [olderInterrupt, historyInterrupt],
      olderCursor: 'msg_h0',
    }),
  },
  {
    title: 'olderPageRead of a failed read ends the loading and keeps the cursor for another try',
    model: modelWith({
      sessionId: SES,
      history: [historyMessage],
      olderCursor: 'msg_h1',
      isLoadingOlderMessages: true,
    }),
    action: { type: 'olderPageRead', before: 'msg_h1', page: null },
    expected: modelWith({ sessionId: SES, history: [historyMessage], olderCursor: 'msg_h1' }),
  },
  {
    title: 'sessionResumed sets the session',
    model: modelWith(),
    action: { type: 'sessionResumed', sessionId: SES },
    expected: modelWith({ sessionId: SES }),
  },
  {
    title: 'sendStarted shows the text as sending and connects',
    model: modelWith({ error: requestError }),
    action: { type: 'sendStarted', send: sent, isStreaming: false },
    expected: modelWith({ pendingSend: { ...sent, status: 'sending' }, optimistic, connection: 'connecting' }),
  },
  {
    title: 'sendStarted during another stream keeps its connection',
    model: modelWith({ connection: 'streaming' }),
    action: { type: 'sendStarted', send: sent, isStreaming: true },
    expected: modelWith({ pendingSend: { ...sent, status: 'sending' }, optimistic, connection: 'streaming' }),
  },
  {
    title: 'sendStarted of a retry (replacesRunId) takes the failed run out of the runs and the history',
    model: modelWith({
      sessionId: SES,
      runs: [otherRun, failedRun],
      history: [historyMessage, attemptUser, attemptText],
      historyToolCalls: [historyToolCall, { ...historyToolCall, toolCallId: 'tc_failed', runId: RUN }],
      historyInterrupts: [historyInterrupt, { ...historyInterrupt, id: 'int_failed', runId: RUN }],
      followedRunId: RUN,
      error: failedRunError,
    }),
    action: { type: 'sendStarted', send: { ...sent, replacesRunId: RUN }, isStreaming: false },
    expected: modelWith({
      sessionId: SES,
      runs: [otherRun],
      history: [historyMessage],
      historyToolCalls: [historyToolCall],
      historyInterrupts: [historyInterrupt],
      followedRunId: RUN,
      pendingSend: { ...sent, status: 'sending' },
      optimistic,
      connection: 'connecting',
    }),
  },
  {
    title: 'runCreated in the same session adds the empty run and drops the pending send',
    model: modelWith({ sessionId: SES, runs: [otherRun], pendingSend: { ...sent, status: 'sending' }, optimistic }),
    action: { type: 'runCreated', runId: RUN, sessionId: SES },
    expected: modelWith({ sessionId: SES, runs: [otherRun, emptyRun], optimistic }),
  },
  {
    title: 'runCreated in a new session drops the old transcript but keeps the optimistic message',
    model: modelWith({ sessionId: 'ses_old', history: [historyMessage], runs: [otherRun], optimistic }),
    action: { type: 'runCreated', runId: RUN, sessionId: SES },
    expected: modelWith({ sessionId: SES, runs: [emptyRun], optimistic }),
  },
  {
    title: 'runCreated keeps a run the stream already filled',
    model: modelWith({ sessionId: SES, runs: [failedRun] }),
    action: { type: 'runCreated', runId: RUN, sessionId: SES },
    expected: modelWith({ sessionId: SES, runs: [failedRun] }),
  },
  {
    title: 'sendFailed keeps the text as failed and marks the optimistic message',
    model: modelWith({ connection: 'connecting', pendingSend: { ...sent, status: 'sending' }, optimistic }),
    action: { type: 'sendFailed', send: sent, isStreaming: false },
    expected: modelWith({ pendingSend: { ...sent, status: 'failed' }, optimistic: { ...optimistic, status: 'error' } }),
  },
  {
    title: 'sendFailed during another stream keeps its connection',
    model: modelWith({ connection: 'streaming' }),
    action: { type: 'sendFailed', send: sent, isStreaming: true },
    expected: modelWith({ connection: 'streaming', pendingSend: { ...sent, status: 'failed' } }),
  },
  {
    title: 'sendExpired keeps the text as failed and shows the error',
    model: modelWith(),
    action: { type: 'sendExpired', send: sent, error: requestError },
    expected: modelWith({ pendingSend: { ...sent, status: 'failed' }, error: requestError }),
  },
  {
    title: 'sendDiscarded drops the text and the optimistic message',
    model: modelWith({ pendingSend: { ...sent, status: 'failed' }, optimistic }),
    action: { type: 'sendDiscarded' },
    expected: modelWith(),
  },
  {
    title: 'approvalSubmitted adds the interrupt id',
    model: modelWith({ submittingInterruptIds: ['int_1'] }),
    action: { type: 'approvalSubmitted', interruptId: 'int_2' },
    expected: modelWith({ submittingInterruptIds: ['int_1', 'int_2'] }),
  },
  {
    title: 'approvalFailed removes the interrupt id',
    model: modelWith({ submittingInterruptIds: ['int_1', 'int_2'] }),
    action: { type: 'approvalFailed', interruptId: 'int_1' },
    expected: modelWith({ submittingInterruptIds: ['int_2'] }),
  },
  {
    title: 'runLoaded of the same session replaces the run and shows its error',
    model: modelWith({ sessionId: SES, runs: [otherRun, emptyRun], optimistic }),
    action: { type: 'runLoaded', snapshot: failedRun },
    expected: modelWith({ sessionId: SES, runs: [otherRun, failedRun], optimistic, error: failedRunError }),
  },
  {
    title: 'runLoaded of another session replaces the transcript',
    model: modelWith({
      sessionId: 'ses_old',
      history: [historyMessage],
      runs: [otherRun],
      optimistic,
      error: requestError,
    }),
    action: { type: 'runLoaded', snapshot: emptyRun },
    expected: modelWith({ sessionId: SES, runs: [emptyRun], error: requestError }),
  },
  {
    title: 'runLoaded of another session forgets the older page of the one before',
    model: modelWith({
      sessionId: 'ses_old',
      history: [historyMessage],
      olderCursor: 'msg_h1',
      isLoadingOlderMessages: true,
    }),
    action: { type: 'runLoaded', snapshot: emptyRun },
    expected: modelWith({ sessionId: SES, runs: [emptyRun] }),
  },
  {
    title: 'runResynced replaces the run without touching the error',
    model: modelWith({ sessionId: SES, runs: [emptyRun, otherRun] }),
    action: { type: 'runResynced', snapshot: failedRun },
    expected: modelWith({ sessionId: SES, runs: [failedRun, otherRun] }),
  },
  {
    title: 'runFollowed of an active run connects',
    model: modelWith({ runs: [emptyRun] }),
    action: { type: 'runFollowed', runId: RUN, isVisible: true, isOnline: true },
    expected: modelWith({ runs: [emptyRun], followedRunId: RUN, connection: 'connecting' }),
  },
  {
    title: 'runFollowed of a finished run is idle',
    model: modelWith({ runs: [failedRun], connection: 'connecting' }),
    action: { type: 'runFollowed', runId: RUN, isVisible: true, isOnline: true },
    expected: modelWith({ runs: [failedRun], followedRunId: RUN }),
  },
  {
    title: 'runFollowed while offline is offline',
    model: modelWith({ runs: [emptyRun] }),
    action: { type: 'runFollowed', runId: RUN, isVisible: false, isOnline: false },
    expected: modelWith({ runs: [emptyRun], followedRunId: RUN, connection: 'offline' }),
  },
  {
    title: 'runFollowed while hidden is idle',
    model: modelWith({ runs: [emptyRun], connection: 'streaming' }),
    action: { type: 'runFollowed', runId: RUN, isVisible: false, isOnline: true },
    expected: modelWith({ runs: [emptyRun], followedRunId: RUN }),
  },
  {
    title: 'eventReceived folds the event and drops the echoed optimistic message',
    model: modelWith({ sessionId: SES, runs: [emptyRun], optimistic, error: requestError }),
    action: { type: 'eventReceived', event: runStarted },
    expected: modelWith({ sessionId: SES, runs: [reduceRun(emptyRun, runStarted)], error: requestError }),
  },
  {
    title: "eventReceived folds the event through the extension's fold after the run reducer",
    model: modelWith({ runs: [emptyRun], extension: { ...EXTENSION, foldRunEvent: markUsage } }),
    action: { type: 'eventReceived', event: runStarted },
    expected: modelWith({
      runs: [{ ...reduceRun(emptyRun, runStarted), usage: MARKED_USAGE }],
      extension: { ...EXTENSION, foldRunEvent: markUsage },
    }),
  },
  {
    title: 'eventReceived of an unknown run starts its snapshot',
    model: modelWith({ runs: [otherRun] }),
    action: { type: 'eventReceived', event: runStarted },
    expected: modelWith({ runs: [otherRun, reduceRun(emptyRun, runStarted)] }),
  },
  {
    title: 'eventReceived of a RUN_ERROR shows the run error',
    model: modelWith({ runs: [emptyRun] }),
    action: { type: 'eventReceived', event: runError },
    expected: modelWith({
      runs: [reduceRun(emptyRun, runError)],
      error: {
        code: 'MODEL_ERROR',
        message: 'The model failed.',
        reference: null,
        retryable: false,
        source: 'run',
        runId: RUN,
      },
    }),
  },
  {
    title: 'streamPhaseChanged sets the connection',
    model: modelWith({ connection: 'connecting' }),
    action: { type: 'streamPhaseChanged', phase: 'streaming' },
    expected: modelWith({ connection: 'streaming' }),
  },
  {
    title: 'streamEnded goes idle',
    model: modelWith({ connection: 'streaming' }),
    action: { type: 'streamEnded' },
    expected: modelWith(),
  },
  {
    title: 'stopRequested of a known run shows the stop',
    model: modelWith({ runs: [emptyRun], followedRunId: RUN }),
    action: { type: 'stopRequested', runId: RUN },
    expected: modelWith({ runs: [emptyRun], followedRunId: RUN, stopping: { runId: RUN } }),
  },
  {
    title: 'stopRequested while the create is unanswered shows the stop without a run',
    model: modelWith({ pendingSend: { ...sent, status: 'sending' } }),
    action: { type: 'stopRequested', runId: null },
    expected: modelWith({ pendingSend: { ...sent, status: 'sending' }, stopping: { runId: null } }),
  },
  {
    title: 'stopFailed ends the stop',
    model: modelWith({ stopping: { runId: RUN } }),
    action: { type: 'stopFailed' },
    expected: modelWith(),
  },
  {
    title: 'runCreated gives a stop pressed during the create its run',
    model: modelWith({ sessionId: SES, stopping: { runId: null } }),
    action: { type: 'runCreated', runId: RUN, sessionId: SES },
    expected: modelWith({ sessionId: SES, runs: [emptyRun], stopping: { runId: RUN } }),
  },
  {
    title: 'sendFailed ends a stop that waited for the create',
    model: modelWith({ stopping: { runId: null } }),
    action: { type: 'sendFailed', send: sent, isStreaming: false },
    expected: modelWith({ pendingSend: { ...sent, status: 'failed' } }),
  },
  {
    title: "eventReceived of the stopped run's end settles the stop",
    model: modelWith({ runs: [emptyRun], followedRunId: RUN, stopping: { runId: RUN } }),
    action: { type: 'eventReceived', event: cancelled },
    expected: modelWith({ runs: [reduceRun(emptyRun, cancelled)], followedRunId: RUN }),
  },
  {
    title: 'eventReceived of another run leaves the stop',
    model: modelWith({ runs: [emptyRun], stopping: { runId: 'run_02OTHER' } }),
    action: { type: 'eventReceived', event: runStarted },
    expected: modelWith({ runs: [reduceRun(emptyRun, runStarted)], stopping: { runId: 'run_02OTHER' } }),
  },
  {
    title: 'eventReceived of MESSAGE_DISCARDED for a retry keeps the message where it stood',
    model: modelWith({ runs: [attemptRun] }),
    action: { type: 'eventReceived', event: discardText },
    expected: modelWith({
      runs: [reduceRun(attemptRun, discardText)],
      discarded: [{ runId: RUN, index: 2, message: attemptText }],
    }),
  },
  {
    title: 'eventReceived of MESSAGE_DISCARDED for a superseded message keeps nothing',
    model: modelWith({ runs: [attemptRun] }),
    action: { type: 'eventReceived', event: discardSuperseded },
    expected: modelWith({ runs: [reduceRun(attemptRun, discardSuperseded)] }),
  },
  {
    title: "eventReceived of the retry's text drops the kept messages",
    model: modelWith({ runs: [attemptRun], discarded: [{ runId: RUN, index: 2, message: attemptText }] }),
    action: { type: 'eventReceived', event: retryText },
    expected: modelWith({ runs: [reduceRun(attemptRun, retryText)] }),
  },
  {
    title: 'runResynced drops the kept messages of its run and settles its stop once it ended',
    model: modelWith({
      runs: [attemptRun],
      stopping: { runId: RUN },
      discarded: [
        { runId: RUN, index: 2, message: attemptText },
        { runId: 'run_02OTHER', index: 1, message: attemptText },
      ],
    }),
    action: { type: 'runResynced', snapshot: failedRun },
    expected: modelWith({ runs: [failedRun], discarded: [{ runId: 'run_02OTHER', index: 1, message: attemptText }] }),
  },
  {
    title: 'hostSignalsChanged offline is offline',
    model: modelWith(),
    action: { type: 'hostSignalsChanged', isOnline: false },
    expected: modelWith({ connection: 'offline' }),
  },
  {
    title: 'hostSignalsChanged online is idle',
    model: modelWith({ connection: 'offline' }),
    action: { type: 'hostSignalsChanged', isOnline: true },
    expected: modelWith(),
  },
  {
    title: 'feedbackKept sets the vote on the answer wherever it is, history or a run',
    model: modelWith({ history: [attemptText], runs: [attemptRun] }),
    action: { type: 'feedbackKept', messageId: attemptText.messageId, feedback: { rating: 'down', comment: 'Wrong' } },
    expected: modelWith({
      history: [{ ...attemptText, feedback: { rating: 'down', comment: 'Wrong' } }],
      runs: [
        {
          ...attemptRun,
          messages: attemptRun.messages.map((message) =>
            message.messageId === attemptText.messageId
              ? { ...message, feedback: { rating: 'down', comment: 'Wrong' } }
              : message,
          ),
        },
      ],
    }),
  },
  {
    title: 'extended keeps the extension',
    model: modelWith(),
    action: { type: 'extended', extension: EXTENSION },
    expected: modelWith({ extension: EXTENSION }),
  },
  {
    title: 'extended with null unplugs the extension',
    model: modelWith({ extension: EXTENSION }),
    action: { type: 'extended', extension: null },
    expected: modelWith(),
  },
];

/** Every action type, so a new one fails to compile until it is listed (and then until it has a case). */
const ACTION_TYPES: Record<ClientActionType, true> = {
  reset: true,
  identityChanged: true,
  bootstrapped: true,
  bootstrapFailed: true,
  requestFailed: true,
  streamFailed: true,
  streamRetried: true,
  loadStarted: true,
  sessionLoaded: true,
  olderPageRequested: true,
  olderPageRead: true,
  sessionCleared: true,
  sessionResumed: true,
  sendStarted: true,
  runCreated: true,
  sendFailed: true,
  sendExpired: true,
  sendDiscarded: true,
  approvalSubmitted: true,
  approvalFailed: true,
  runLoaded: true,
  runResynced: true,
  runFollowed: true,
  eventReceived: true,
  streamPhaseChanged: true,
  streamEnded: true,
  hostSignalsChanged: true,
  stopRequested: true,
  stopFailed: true,
  extended: true,
  feedbackKept: true,
};

describe('reduceClient', () => {
  it.each(cases)('$title', ({ model, action, expected }) => {
    expect(reduceClient(deepFreeze(model), deepFreeze(action))).toEqual(expected);
  });

  it('has a case for every action type', () => {
    expect(new Set(cases.map((entry) => entry.action.type))).toEqual(new Set(Object.keys(ACTION_TYPES)));
  });

  it('drops an older page asked for from a cursor the model has left (another session, or a page already read)', () => {
    const shown = deepFreeze(modelWith({ sessionId: SES, history: [historyMessage], olderCursor: 'msg_h1' }));
    const page = {
      history: [olderMessage],
      historyToolCalls: [olderToolCall],
      historyInterrupts: [],
      olderCursor: null,
    };
    for (const action of [
      { type: 'olderPageRequested', before: 'msg_old' },
      { type: 'olderPageRead', before: 'msg_old', page },
      { type: 'olderPageRead', before: 'msg_old', page: null },
    ] satisfies ClientAction[]) {
      expect(reduceClient(shown, action)).toBe(shown);
    }
  });

  it('returns the same model for an event it already applied and for an unchanged phase', () => {
    const applied = deepFreeze(modelWith({ runs: [reduceRun(emptyRun, runStarted)] }));
    expect(reduceClient(applied, { type: 'eventReceived', event: runStarted })).toBe(applied);
    const streaming = deepFreeze(modelWith({ connection: 'streaming' }));
    expect(reduceClient(streaming, { type: 'streamPhaseChanged', phase: 'streaming' })).toBe(streaming);
  });
});
