import type { Page } from '@playwright/test';
import { startTcpFaultProxy } from '../test/support/tcp-fault-proxy.ts';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState, type ChatDriver } from './support/chat.ts';
import { expectedSlowTokens, readSlowTokens } from './support/slow-tokens.ts';

/** Waits until the last answer shows at least `count` `/slow` tokens and returns them as rendered. */
async function waitForSlowTokens(widget: ChatDriver, count: number): Promise<string[]> {
  await expect
    .poll(async () => readSlowTokens(await widget.assistantMessages.last().innerText()).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(count);
  return readSlowTokens(await widget.assistantMessages.last().innerText());
}

/** Asserts the rendered answer and the client's copy are the same gapless, repeat-free `/slow` prefix. */
async function expectIntactSlowAnswer(page: Page, widget: ChatDriver): Promise<number> {
  const state = await readState(page);
  const stateTokens = readSlowTokens(
    state.messages.filter((message) => message.role === 'assistant').at(-1)?.content ?? '',
  );
  expect(stateTokens).toEqual(expectedSlowTokens(stateTokens.length));
  const shown = readSlowTokens(await widget.assistantMessages.last().innerText());
  expect(shown).toEqual(expectedSlowTokens(shown.length));
  return stateTokens.length;
}

test('a reload in the middle of a /slow answer resumes the same run with no lost or repeated text', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  await widget.send('/slow');
  const before = await waitForSlowTokens(widget, 15);
  const { run } = await readState(page);
  expect(run?.status).toBe('running');

  await page.reload();
  await openDemo(page, page.url());
  await expect.poll(async () => (await readState(page)).run?.runId).toBe(run?.runId);
  await waitForSlowTokens(widget, before.length + 15);
  expect(await expectIntactSlowAnswer(page, widget)).toBeGreaterThanOrEqual(before.length + 15);
  await expect(widget.userMessages).toHaveText(['You /slow']);
  await expect(widget.assistantMessages).toHaveCount(1);

  await widget.stopButton.click();
  await widget.waitForIdle();
  await expectIntactSlowAnswer(page, widget);
});

test('a reload while an approval waits shows the same card, and allowing it completes the run', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  await widget.send('/approval');
  await expect(widget.approvalCards).toHaveCount(1);
  await expect(widget.approvalCards.first()).toHaveAttribute('data-state', 'open');
  const cardText = await widget.approvalCards.first().innerText();
  const { run } = await readState(page);

  await page.reload();
  await openDemo(page, page.url());
  await expect(widget.approvalCards).toHaveCount(1);
  await expect(widget.approvalCards.first()).toHaveAttribute('data-state', 'open');
  expect(await widget.approvalCards.first().innerText()).toBe(cardText);
  expect((await readState(page)).run?.runId).toBe(run?.runId);

  await widget.approvalCards.first().locator('[part~="allow-button"]').click();
  await widget.waitForIdle();
  await expect(widget.approvalCards).toHaveCount(0);
  // Each demo user has their own drafts, so this user's first /approval always deletes draft-42.
  await expect(widget.toolCards.last()).toHaveAttribute('data-status', 'completed');
  await expect(widget.assistantMessages.last()).toHaveText(/Done: draft-42 was deleted\./);
  const state = await readState(page);
  expect(state.run).toEqual(expect.objectContaining({ runId: run?.runId, status: 'completed' }));
  expect(state.interrupts).toEqual([expect.objectContaining({ state: 'resolved', decision: 'allow' })]);
});

test('a network cut mid-stream (TCP reset at a proxy) resumes the run with nothing lost or repeated', async ({
  page,
  baseURL,
  pageErrors: _errors,
}) => {
  const proxy = await startTcpFaultProxy({ upstreamPort: Number(new URL(baseURL as string).port) });
  try {
    const isEvents = ({ method, path }: { method: string; path: string }): boolean =>
      method === 'GET' && path.includes('/events');
    proxy.addFault({ match: isEvents, afterBytes: 3000, kind: 'cut' });
    await openDemo(page, `http://127.0.0.1:${proxy.port}/`);
    const widget = chat(page);
    await widget.send('/slow');
    await expect.poll(() => proxy.count(isEvents), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const { run } = await readState(page);
    await waitForSlowTokens(widget, 60);
    expect((await readState(page)).run?.runId).toBe(run?.runId);
    await expectIntactSlowAnswer(page, widget);
    await widget.stopButton.click();
    await widget.waitForIdle();
    await expectIntactSlowAnswer(page, widget);
  } finally {
    await page.close();
    await proxy.close();
  }
});

test('a 503 with Retry-After on create is retried with the same key and makes one run', async ({
  page,
  pageErrors: _errors,
}) => {
  const keys: string[] = [];
  await page.route('**/api/agent/v1/runs', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length > 1) return route.continue();
    return route.fulfill({
      status: 503,
      headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1' },
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Unavailable',
        status: 503,
        code: 'AGENT_UNAVAILABLE',
        requestId: 'req_e2e503',
        retryable: true,
      }),
    });
  });
  await openDemo(page);
  const widget = chat(page);
  await widget.send('/echo created once');
  await expect(widget.assistantMessages.last()).toHaveText(/created once/);
  await widget.waitForIdle();

  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  await expect(widget.userMessages).toHaveText(['You /echo created once']);
  await expect(widget.assistantMessages).toHaveCount(1);
  const state = await readState(page);
  const sessions = await page.evaluate(async (identity) => {
    const response = await fetch('/api/agent/v1/sessions', {
      headers: { 'Agent-Protocol': '1', 'X-Agent-Identity': identity },
    });
    return (await response.json()) as { items: unknown[] };
  }, state.bootstrap?.identity.identityId ?? '');
  expect(sessions.items).toHaveLength(1);
  const messages = await page.evaluate(
    async ([identity, sessionId]) => {
      const response = await fetch(`/api/agent/v1/sessions/${sessionId}/messages`, {
        headers: { 'Agent-Protocol': '1', 'X-Agent-Identity': identity },
      });
      return ((await response.json()) as { items: Array<{ role: string }> }).items.map((item) => item.role);
    },
    [state.bootstrap?.identity.identityId ?? '', state.sessionId ?? ''] as const,
  );
  expect(messages.filter((role) => role === 'user')).toHaveLength(1);
});
