import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState, type DemoWindow } from './support/chat.ts';

// A restored session of 120 messages (60 `/echo` turns) shows its newest page of 50; scrolling to
// the top loads the older pages (50, then 20) above it while the message in view stays put.

/** Runs `turns` `/echo` turns in one new session through the protocol, each to its end; returns the session id. */
async function createLongSession(page: Page, turns: number): Promise<string> {
  return page.evaluate(async (count) => {
    const boot = (window as DemoWindow).agentChatDemo?.inline.client.getState().bootstrap as unknown as {
      identity: { identityId: string };
      agent: { versionId: string };
    };
    const headers = { 'Agent-Protocol': '1', 'X-Agent-Identity': boot.identity.identityId };
    let sessionId: string | undefined;
    for (let turn = 1; turn <= count; turn += 1) {
      const key = `older-messages-e2e-${Date.now()}-${turn}`;
      const response = await fetch('/api/agent/v1/runs', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({
          ...(sessionId === undefined ? {} : { sessionId }),
          agentVersionId: boot.agent.versionId,
          input: { clientMessageId: `cm_${key}`, content: [{ type: 'text', text: `/echo turn ${turn}` }] },
        }),
      });
      const run = (await response.json()) as { runId: string; sessionId: string };
      sessionId = run.sessionId;
      // The stream closes after the run's terminal event.
      await (await fetch(`/api/agent/v1/runs/${run.runId}/events?after=0`, { headers })).text();
    }
    return sessionId as string;
  }, turns);
}

/** The top of the user message that says `text`, relative to the viewport. */
function topOf(page: Page, text: string): Promise<number | null> {
  return page.evaluate((wanted) => {
    const root = document.querySelector('#inline-chat agent-chat')?.shadowRoot;
    const rows = Array.from(root?.querySelectorAll('[part~="user-message"]') ?? []);
    const row = rows.find((element) => element.textContent?.includes(wanted));
    return row ? row.getBoundingClientRect().top : null;
  }, text);
}

/** Scrolls the transcript to its top in one jump and returns where the user message saying `text` is then. */
function scrollToTop(page: Page, text: string): Promise<number | null> {
  return page.evaluate((wanted) => {
    const root = document.querySelector('#inline-chat agent-chat')?.shadowRoot;
    const transcript = root?.querySelector('.transcript');
    // The person's wheel, then their scroll to the top in one jump.
    transcript?.dispatchEvent(new WheelEvent('wheel', { deltaY: -100_000 }));
    if (transcript) transcript.scrollTop = 0;
    const rows = Array.from(root?.querySelectorAll('[part~="user-message"]') ?? []);
    return rows.find((element) => element.textContent?.includes(wanted))?.getBoundingClientRect().top ?? null;
  }, text);
}

test('older messages: a long session restores its newest page and loads the rest at the top, keeping the message in view', async ({
  page,
  pageErrors: _errors,
}) => {
  test.setTimeout(180_000);
  await openDemo(page);
  const widget = chat(page);
  const sessionId = await createLongSession(page, 60);
  const olderReads: string[] = [];
  page.on('request', (request) => {
    const before = new URL(request.url()).searchParams.get('before');
    if (request.url().includes('/messages') && before !== null) olderReads.push(before);
  });

  await page.evaluate((id) => (window as DemoWindow).agentChatDemo?.inline.client.restore(id), sessionId);
  await expect(widget.userMessages).toHaveCount(25);
  await expect(widget.userMessages.first()).toContainText('/echo turn 36');
  await expect(widget.userMessages.last()).toContainText('/echo turn 60');
  expect(olderReads).toEqual([]);

  // The top: the next page (turns 11–35) lands above, and turn 36 stays where it was on screen.
  const before = await scrollToTop(page, '/echo turn 36');
  await expect(widget.userMessages).toHaveCount(50);
  await expect(widget.userMessages.first()).toContainText('/echo turn 11');
  const after = await topOf(page, '/echo turn 36');
  expect(Math.abs((after ?? Infinity) - (before ?? 0))).toBeLessThanOrEqual(2);

  // The top again: the last 20 messages, then nothing more to read.
  const beforeLast = await scrollToTop(page, '/echo turn 11');
  await expect(widget.userMessages).toHaveCount(60);
  await expect(widget.userMessages.first()).toContainText('/echo turn 1');
  expect(Math.abs(((await topOf(page, '/echo turn 11')) ?? Infinity) - (beforeLast ?? 0))).toBeLessThanOrEqual(2);
  const state = await readState(page);
  const ids = state.messages.map((message) => message.messageId);
  expect([state.messages.length, new Set(ids).size]).toEqual([120, 120]);
  expect(state.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(
    Array.from({ length: 60 }, (_, index) => `/echo turn ${index + 1}`),
  );
  await expect(widget.root.locator('.older-status')).toHaveCount(0);

  await scrollToTop(page, '/echo turn 1');
  await page.waitForTimeout(500);
  expect(olderReads).toEqual([ids[70], ids[20]]);
});
