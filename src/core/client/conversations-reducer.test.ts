import { describe, expect, it } from 'vitest';
import type { SessionResource } from '../protocol.ts';
import { createInitialConversationsState, reduceConversations } from './conversations-reducer.ts';

const session = (sessionId: string, title = sessionId): SessionResource => ({
  sessionId,
  agentVersionId: 'agv_1',
  title,
  activeRun: null,
  lastRunId: null,
  messageCount: 2,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
});

describe('reduceConversations', () => {
  const loaded = reduceConversations(createInitialConversationsState('ses_b'), {
    type: 'listed',
    page: { items: [session('ses_b'), session('ses_a')], nextAfter: '5.ses_a' },
    isNextPage: false,
  });

  it('replaces the list with a first page and appends a next one, showing a repeated session once', () => {
    expect(loaded).toEqual({
      items: [session('ses_b'), session('ses_a')],
      nextAfter: '5.ses_a',
      isLoaded: true,
      isLoading: false,
      error: null,
      currentSessionId: 'ses_b',
    });
    const next = reduceConversations(loaded, {
      type: 'listed',
      page: { items: [session('ses_a', 'moved'), session('ses_z')], nextAfter: null },
      isNextPage: true,
    });
    expect(next.items.map((s) => [s.sessionId, s.title])).toEqual([
      ['ses_b', 'ses_b'],
      ['ses_a', 'ses_a'],
      ['ses_z', 'ses_z'],
    ]);
    expect(next.nextAfter).toBeNull();
  });

  it('replaces a renamed item in place, drops a deleted one and clears the last error', () => {
    const failed = reduceConversations(loaded, {
      type: 'failed',
      error: { code: 'RUN_ALREADY_ACTIVE', message: 'busy', reference: null, retryable: false, source: 'request' },
    });
    expect([failed.error?.code, failed.isLoading]).toEqual(['RUN_ALREADY_ACTIVE', false]);
    const renamed = reduceConversations(failed, { type: 'renamed', session: session('ses_a', 'Trip') });
    expect([renamed.items.map((s) => s.title), renamed.error]).toEqual([['ses_b', 'Trip'], null]);
    const deleted = reduceConversations(renamed, { type: 'deleted', sessionId: 'ses_b' });
    expect(deleted.items.map((s) => s.sessionId)).toEqual(['ses_a']);
  });

  it('follows the conversation on screen, returning the same state when it did not change', () => {
    expect(reduceConversations(loaded, { type: 'currentChanged', sessionId: 'ses_b' })).toBe(loaded);
    expect(reduceConversations(loaded, { type: 'currentChanged', sessionId: null }).currentSessionId).toBeNull();
    expect(reduceConversations(loaded, { type: 'listStarted' }).isLoading).toBe(true);
  });
});
