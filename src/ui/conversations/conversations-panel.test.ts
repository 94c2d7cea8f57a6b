import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Conversations, ConversationsAction, ConversationsState, SessionResource } from '../../core/index.ts';
import { createInitialConversationsState, reduceConversations } from '../../core/index.ts';
import { CONVERSATIONS_CLOSE_EVENT, defineConversationsPanel } from './conversations-panel.ts';
import type { AgentChatConversationsElement } from './conversations-panel.ts';

defineConversationsPanel();

afterEach(() => {
  document.body.replaceChildren();
});

const session = (sessionId: string, title: string | null, extra: Partial<SessionResource> = {}): SessionResource => ({
  sessionId,
  agentVersionId: 'agv_1',
  title,
  activeRun: null,
  lastRunId: null,
  messageCount: 4,
  createdAt: '2026-12-01T09:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  ...extra,
});

/** Conversations over a list in memory (the real reducer), recording every call. */
function createFakeConversations(
  items: SessionResource[],
  currentSessionId: string | null,
): Conversations & {
  calls: string[];
} {
  let state: ConversationsState = createInitialConversationsState(currentSessionId);
  const listeners = new Set<(state: ConversationsState) => void>();
  const calls: string[] = [];
  const dispatch = (action: ConversationsAction): void => {
    state = reduceConversations(state, action);
    for (const listener of listeners) listener(state);
  };
  return {
    calls,
    async listSessions() {
      calls.push('list');
      dispatch({ type: 'listed', page: { items, nextAfter: null }, isNextPage: false });
    },
    async renameSession(sessionId, title) {
      calls.push(`rename ${sessionId} ${title}`);
      const renamed = { ...(state.items.find((s) => s.sessionId === sessionId) as SessionResource), title };
      dispatch({ type: 'renamed', session: renamed });
      return renamed;
    },
    async deleteSession(sessionId) {
      calls.push(`delete ${sessionId}`);
      dispatch({ type: 'deleted', sessionId });
    },
    async switchSession(sessionId) {
      calls.push(`switch ${sessionId}`);
      dispatch({ type: 'currentChanged', sessionId });
    },
    newSession() {
      calls.push('new');
      dispatch({ type: 'currentChanged', sessionId: null });
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => listeners.clear(),
  };
}

const SESSIONS = [
  // A first run: the server counts the message being answered.
  session('ses_b', 'Trip to Lisbon', {
    messageCount: 1,
    activeRun: { runId: 'run_9', status: 'running', lastSeq: 7 },
  }),
  session('ses_a', 'Budget for May', { messageCount: 2 }),
  session('ses_c', null),
];

async function mountPanel(theme: 'light' | 'dark' = 'light') {
  const conversations = createFakeConversations(SESSIONS, 'ses_a');
  const panel = document.createElement('agent-chat-conversations') as AgentChatConversationsElement;
  panel.conversations = conversations;
  panel.locale = 'en';
  panel.theme = theme;
  panel.style.cssText = 'display:block;width:375px;height:560px';
  const closes: Event[] = [];
  panel.addEventListener(CONVERSATIONS_CLOSE_EVENT, (event) => closes.push(event));
  document.body.append(panel);
  await panel.updateComplete;
  await panel.updateComplete;
  const root = panel.shadowRoot as ShadowRoot;
  const row = (sessionId: string) => root.querySelector(`li[data-session-id="${sessionId}"]`) as HTMLElement;
  return { panel, root, row, conversations, closes };
}

describe('<agent-chat-conversations>', () => {
  it('lists the conversations with title, count and a running answer, marks the current one, and switches', async () => {
    const { root, row, conversations, closes } = await mountPanel();
    const texts = [...root.querySelectorAll('.open')].map((button) => button.textContent?.replace(/\s+/g, ' ').trim());
    expect(texts).toEqual([
      expect.stringMatching(/^Trip to Lisbon 1 message · .+ · Answering…$/),
      expect.stringMatching(/^Budget for May 2 messages · /),
      expect.stringMatching(/^Untitled conversation 4 messages · /),
    ]);
    expect(row('ses_a').querySelector('.open')?.getAttribute('aria-current')).toBe('true');
    expect(row('ses_b').querySelector('.open')?.hasAttribute('aria-current')).toBe(false);
    expect(row('ses_b').querySelector<HTMLButtonElement>('.delete-button')?.disabled).toBe(true);
    (row('ses_b').querySelector('.open') as HTMLButtonElement).click();
    await Promise.resolve();
    expect(conversations.calls).toEqual(['list', 'switch ses_b']);
    expect(closes).toHaveLength(1);
  });

  it('renames inline by keyboard: Enter saves the trimmed title, Escape cancels and gives focus back', async () => {
    const { panel, root, row, conversations, closes } = await mountPanel();
    const renameButton = row('ses_a').querySelector('.rename-button') as HTMLButtonElement;
    expect(renameButton.getAttribute('aria-label')).toBe('Rename “Budget for May”');
    renameButton.click();
    await panel.updateComplete;
    await panel.updateComplete;
    const input = row('ses_a').querySelector('input') as HTMLInputElement;
    expect([root.activeElement, input.value, input.getAttribute('aria-label')]).toEqual([
      input,
      'Budget for May',
      'New title',
    ]);
    await userEvent.keyboard('{Control>}a{/Control}  June budget {Enter}');
    await panel.updateComplete;
    expect(conversations.calls.at(-1)).toBe('rename ses_a June budget');
    expect(row('ses_a').querySelector('.title')?.textContent).toBe('June budget');

    (row('ses_c').querySelector('.rename-button') as HTMLButtonElement).click();
    await panel.updateComplete;
    await panel.updateComplete;
    await userEvent.keyboard('Never saved{Escape}');
    await panel.updateComplete;
    await panel.updateComplete;
    expect(row('ses_c').querySelector('input')).toBeNull();
    expect(root.activeElement).toBe(row('ses_c').querySelector('.open'));
    expect(conversations.calls.filter((call) => call.startsWith('rename'))).toHaveLength(1);
    expect(closes).toHaveLength(0);
  });

  it('deletes only after a confirmation, then focuses the row that took its place', async () => {
    const { panel, root, row, conversations } = await mountPanel();
    (row('ses_a').querySelector('.delete-button') as HTMLButtonElement).click();
    await panel.updateComplete;
    await panel.updateComplete;
    const confirm = row('ses_a').querySelector('[role="group"]') as HTMLElement;
    expect(confirm.textContent).toContain('Delete “Budget for May”? This cannot be undone.');
    expect(root.activeElement?.textContent?.trim()).toBe('Cancel');
    (root.activeElement as HTMLButtonElement).click();
    await panel.updateComplete;
    expect(conversations.calls).toEqual(['list']);
    (row('ses_a').querySelector('.delete-button') as HTMLButtonElement).click();
    await panel.updateComplete;
    (row('ses_a').querySelector('.danger') as HTMLButtonElement).click();
    await expect.poll(() => conversations.calls).toEqual(['list', 'delete ses_a']);
    await expect
      .poll(() => [...root.querySelectorAll('li')].map((li) => li.dataset['sessionId']))
      .toEqual(['ses_b', 'ses_c']);
    await expect.poll(() => root.activeElement).toBe(row('ses_c').querySelector('.open'));
  });

  it('starts a new conversation and closes on ✕ or Escape', async () => {
    const { root, conversations, closes } = await mountPanel();
    (root.querySelector('.new-button') as HTMLButtonElement).click();
    expect(conversations.calls.at(-1)).toBe('new');
    (root.querySelector('.open') as HTMLButtonElement).focus();
    await userEvent.keyboard('{Escape}');
    (root.querySelector('[part="close"]') as HTMLButtonElement).click();
    expect(closes).toHaveLength(3);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`has zero axe violations in the ${theme} theme at 375 px, with a row renaming`, async () => {
      const { panel, row } = await mountPanel(theme);
      (row('ses_a').querySelector('.rename-button') as HTMLButtonElement).click();
      await panel.updateComplete;
      const results = await axe.run(panel, { resultTypes: ['violations'] });
      expect(results.violations.map((violation) => violation.id)).toEqual([]);
      expect(panel.scrollWidth).toBeLessThanOrEqual(375);
      await page.screenshot({ element: panel, path: `../../../test-results/screenshots/conversations-${theme}.png` });
    });
  }
});
