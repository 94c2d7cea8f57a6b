import { describe, expect, it } from 'vitest';
import { createInitialClientState, type ClientError, type ClientState } from '../../core/index.ts';
import { createMessage } from '../test-support/mount-agent-chat.ts';
import { StateChangeTracker } from './state-changes.ts';

const base = createInitialClientState();
const stateWith = (patch: Partial<ClientState>): ClientState => ({ ...base, ...patch });
const error: ClientError = {
  code: 'TIMEOUT',
  message: 'Timed out.',
  reference: 'req_1',
  retryable: true,
  source: 'request',
};

describe('StateChangeTracker', () => {
  it('announces each answer that finished after the first state, once, and never history', () => {
    const tracker = new StateChangeTracker();
    const history = createMessage({ messageId: 'a0', content: 'Old answer' });
    expect(tracker.observe(stateWith({ messages: [history] }))).toEqual({});
    const streaming = createMessage({ messageId: 'a1', content: 'New', status: 'streaming' });
    expect(tracker.observe(stateWith({ messages: [history, streaming] }))).toEqual({});
    const finished = stateWith({
      messages: [history, { ...streaming, content: 'New **answer**', status: 'complete' }],
    });
    expect(tracker.observe(finished)).toEqual({ announcement: 'New answer' });
    expect(tracker.observe({ ...finished })).toEqual({});
  });

  it('does not announce older answers put before those seen, but still a new one that comes with them', () => {
    const tracker = new StateChangeTracker();
    const seen = createMessage({ messageId: 'a5', content: 'Seen answer' });
    tracker.observe(stateWith({ messages: [seen] }));
    const older = [
      createMessage({ messageId: 'a3', content: 'Older' }),
      createMessage({ messageId: 'a4', content: 'Old' }),
    ];
    expect(tracker.observe(stateWith({ messages: [...older, seen] }))).toEqual({});
    const fresh = createMessage({ messageId: 'a6', content: 'Fresh answer' });
    const oldest = createMessage({ messageId: 'a1', content: 'Oldest' });
    expect(tracker.observe(stateWith({ messages: [oldest, ...older, seen, fresh] }))).toEqual({
      announcement: 'Fresh answer',
    });
  });

  it('reports a new error once and an error object seen before not again', () => {
    const tracker = new StateChangeTracker();
    expect(tracker.observe(stateWith({ error }))).toEqual({ newError: error });
    expect(tracker.observe(stateWith({ error, connection: 'error' }))).toEqual({});
    expect(tracker.observe(stateWith({ error: null }))).toEqual({});
    const again = { ...error };
    expect(tracker.observe(stateWith({ error: again }))).toEqual({ newError: again });
  });

  it("gives back a failed send's text once per send", () => {
    const tracker = new StateChangeTracker();
    const failed = { clientMessageId: 'cm_1', text: 'Hello', status: 'failed' as const };
    expect(tracker.observe(stateWith({ pendingSend: { ...failed, status: 'sending' } }))).toEqual({});
    expect(tracker.observe(stateWith({ pendingSend: failed }))).toEqual({ restoredText: 'Hello' });
    expect(tracker.observe(stateWith({ pendingSend: { ...failed } }))).toEqual({});
    expect(tracker.observe(stateWith({ pendingSend: { ...failed, clientMessageId: 'cm_2' } }))).toEqual({
      restoredText: 'Hello',
    });
  });

  it('returns nothing for the state object it saw last', () => {
    const tracker = new StateChangeTracker();
    const state = stateWith({ error });
    tracker.observe(state);
    expect(tracker.observe(state)).toEqual({});
  });
});
