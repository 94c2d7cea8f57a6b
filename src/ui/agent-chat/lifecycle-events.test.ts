import { describe, expect, it } from 'vitest';
import { createInitialClientState, type ClientState } from '../../core/index.ts';
import { createMessage, mountAgentChat } from '../test-support/mount-agent-chat.ts';
import type { AgentChatRunFinishDetail } from './agent-chat-events.ts';
import { LifecycleEventTracker } from './lifecycle-events.ts';

const base = createInitialClientState();
const state = (patch: Partial<ClientState>): ClientState => ({ ...base, ...patch });
const names = (events: ReturnType<LifecycleEventTracker['observe']>) => events.map(([name]) => name);

describe('LifecycleEventTracker', () => {
  it('reports a run, its tool call, its approval and its answer in the order they happen', () => {
    const tracker = new LifecycleEventTracker();
    const live = { runId: 'run-1', status: 'running' as const, lastSeq: 3 };
    const toolCall = { toolCallId: 't1', name: 'drafts.delete', status: 'awaiting_approval' as const };
    const interrupt = { id: 'i1', reason: 'tool_call' as const, toolCallId: 't1', state: 'open' as const };
    expect(tracker.observe(base)).toEqual([]);
    expect(tracker.observe(state({ sessionId: 'ses_1', run: live }))).toEqual([
      ['agent-chat-session', { sessionId: 'ses_1' }],
      ['agent-chat-run-start', { runId: 'run-1' }],
    ]);
    const asking = state({ sessionId: 'ses_1', run: live, toolCalls: [toolCall], interrupts: [interrupt] });
    expect(tracker.observe(asking)).toEqual([
      ['agent-chat-tool-start', { toolCall }],
      ['agent-chat-approval-request', { interrupt }],
    ]);
    const done = { ...toolCall, status: 'completed' as const };
    const resolved = { ...interrupt, state: 'resolved' as const, decision: 'allow' as const };
    const answer = createMessage({ messageId: 'a1', content: 'Deleted.', runId: 'run-1' });
    expect(
      tracker.observe(
        state({
          sessionId: 'ses_1',
          run: { ...live, status: 'completed' },
          toolCalls: [done],
          interrupts: [resolved],
          messages: [answer],
        }),
      ),
    ).toEqual([
      ['agent-chat-tool-end', { toolCall: done }],
      ['agent-chat-approval-resolve', { interrupt: resolved }],
      ['agent-chat-message', { message: answer }],
      ['agent-chat-run-finish', { runId: 'run-1', status: 'completed' }],
    ]);
    expect(tracker.observe(state({ sessionId: null }))).toEqual([['agent-chat-session', { sessionId: null }]]);
  });

  it('takes what a restored, finished session holds as known: only the session change is news', () => {
    const tracker = new LifecycleEventTracker();
    tracker.observe(base);
    const history = state({
      sessionId: 'ses_old',
      run: { runId: 'run-0', status: 'completed', lastSeq: 9 },
      messages: [createMessage({ messageId: 'a0', content: 'Old', runId: 'run-0' })],
      toolCalls: [{ toolCallId: 't0', name: 'orders.lookup', status: 'completed' }],
      interrupts: [{ id: 'i0', reason: 'tool_call', state: 'resolved', decision: 'deny' }],
    });
    expect(names(tracker.observe(history))).toEqual(['agent-chat-session']);
    expect(tracker.observe(history)).toEqual([]);
  });

  it('reports an answer that completes within one state of a streaming one, once', () => {
    const tracker = new LifecycleEventTracker();
    const live = { runId: 'run-1', status: 'running' as const, lastSeq: 3 };
    tracker.observe(
      state({ run: live, messages: [createMessage({ messageId: 'a1', status: 'streaming', runId: 'run-1' })] }),
    );
    const complete = state({
      run: live,
      messages: [createMessage({ messageId: 'a1', content: 'Hi', runId: 'run-1' })],
    });
    expect(names(tracker.observe(complete))).toEqual(['agent-chat-message']);
    expect(tracker.observe({ ...complete })).toEqual([]);
  });
});

describe('agent-chat-run-finish (types, checked by npm run typecheck)', () => {
  it('types the status as how a run ended, never a live status', () => {
    const ended: AgentChatRunFinishDetail['status'][] = ['completed', 'failed', 'cancelled', 'expired'];
    // @ts-expect-error a finished run is never still running
    const running: AgentChatRunFinishDetail['status'] = 'running';
    expect([...ended, running]).toHaveLength(5);
  });
});

describe('<agent-chat> lifecycle events', () => {
  it('dispatches each as a bubbling, composed CustomEvent for every state the client publishes', async () => {
    const { element, client } = await mountAgentChat();
    const seen: Array<[string, unknown, boolean, boolean]> = [];
    for (const name of ['agent-chat-run-start', 'agent-chat-run-finish', 'agent-chat-session'] as const) {
      document.body.addEventListener(name, (event) =>
        seen.push([event.type, event.detail, event.bubbles, event.composed]),
      );
    }
    client.emit({ sessionId: 'ses_1', run: { runId: 'run-1', status: 'running', lastSeq: 1 } });
    client.emit({ run: { runId: 'run-1', status: 'cancelled', lastSeq: 2 } });
    await element.updateComplete;
    expect(seen).toEqual([
      ['agent-chat-session', { sessionId: 'ses_1' }, true, true],
      ['agent-chat-run-start', { runId: 'run-1' }, true, true],
      ['agent-chat-run-finish', { runId: 'run-1', status: 'cancelled' }, true, true],
    ]);
  });
});
