import type { Page, Route } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState, waitForDemo, type ChatDriver } from './support/chat.ts';
import {
  countToolRuns,
  describeTimeline,
  installTestTools,
  readRunLog,
  readStoredReceipts,
  type ToolTestWindow,
} from './support/browser-tools.ts';

const RECEIPTS = '**/api/agent/v1/runs/*/tool-calls/*/receipts';

/** Opens the demo with the test tools and returns its inline widget. */
async function openToolDemo(page: Page): Promise<ChatDriver> {
  await installTestTools(page);
  await openDemo(page);
  await page.waitForFunction(
    () => (window as ToolTestWindow).agentChatDemo?.inline.client.getState().toolRunner != null,
  );
  return chat(page);
}

/** The widget's first tool card's place line (where the call runs). */
/** The first tool card's status line, where the runner says where a browser call runs. */
const placeOf = (widget: ChatDriver) => widget.toolCards.first().locator('.tool-status');

const diagnostics = (page: Page) => page.evaluate(() => (window as ToolTestWindow).toolDiagnostics ?? []);

/** The kinds and receipt ids of the run's `TOOL_CALL_RECEIPT` events. */
async function receiptsOf(page: Page, runId: string): Promise<string[]> {
  return (await readRunLog(page, runId))
    .filter((event) => event.type === 'TOOL_CALL_RECEIPT')
    .map((event) => `${String(event.data.kind)} ${String(event.data.receiptId)}`);
}

test('page.read_selection runs in this browser and the answer carries what the user selected', async ({
  page,
  pageErrors: _errors,
}) => {
  const widget = await openToolDemo(page);
  await page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('#selectable-text code') as Node);
    document.getSelection()?.removeAllRanges();
    document.getSelection()?.addRange(range);
  });
  await widget.send('/clienttool page.read_selection {}');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  await expect(placeOf(widget)).toHaveText('Completed in this browser');
  await expect(widget.assistantMessages.last().locator('.message-body')).toHaveText(
    'The browser tool page.read_selection returned: {"text":"page.read_selection"}',
  );
  const { run } = await readState(page);
  expect((await receiptsOf(page, run?.runId ?? '')).map((line) => line.split(' ')[0])).toEqual([
    'accepted',
    'completed',
  ]);
  expect(await readStoredReceipts(page)).toEqual([]);
});

test('cart.add is claimed only after the user allowed it, then reports progress and fills the cart', async ({
  page,
  pageErrors: _errors,
}) => {
  const widget = await openToolDemo(page);
  await widget.send('/clienttool cart.add {"sku":"SKU-1","quantity":2}');
  await expect(widget.approvalCards).toHaveCount(1);
  // While its approval is open, the approval card is the call's one card (issue 18's look).
  await expect(widget.toolCards).toHaveCount(0);
  expect((await readState(page)).toolCalls[0]?.status).toBe('awaiting_approval');
  expect((await readState(page)).toolCalls[0]?.executor?.executorId).toBeUndefined();
  await widget.approvalCards.first().locator('[part~="allow-button"]').click();
  await expect(widget.toolCards.first().locator('.tool-progress')).toContainText('Checking stock…');
  await expect(placeOf(widget)).toHaveText('Running in this browser');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  await expect(page.locator('#demo-cart li')).toHaveText(['2 × SKU-1']);
  await expect(widget.assistantMessages.last()).toContainText('"added":{"sku":"SKU-1","quantity":2}');
});

test('the receipt is stored before the handler runs and after each step; the final one goes only after the server acknowledged it', async ({
  page,
  pageErrors: _errors,
}) => {
  const widget = await openToolDemo(page);
  let releaseFinal: () => void = () => undefined;
  const finalHeld = new Promise<string>((resolve) => {
    void page.route(RECEIPTS, async (route: Route) => {
      const body = route.request().postDataJSON() as { kind: string; receiptId: string };
      if (body.kind === 'completed') {
        resolve(body.receiptId);
        await new Promise<void>((release) => {
          releaseFinal = release;
        });
      }
      await route.continue();
    });
  });
  await widget.send('/clienttool test.quick {}');
  const receiptId = await finalHeld;
  // The server has not answered the final receipt: the page still holds it, with its id.
  const [stored] = await readStoredReceipts(page);
  expect(stored).toEqual(
    expect.objectContaining({
      name: 'test.quick',
      state: 'final',
      sequence: 1,
      final: { receiptId, sequence: 1, kind: 'completed', result: { ok: true, run: 1 } },
    }),
  );
  releaseFinal();
  await widget.waitForIdle();
  await expect.poll(() => readStoredReceipts(page)).toEqual([]);
  expect(await diagnostics(page)).toEqual(['test.quick claimed', 'test.quick running', 'test.quick delivered']);
});

test('a reload in the middle of a handler: the new page sees the call replayed, never runs it again, and shows it needs reconciliation', async ({
  page,
  pageErrors: _errors,
}) => {
  let widget = await openToolDemo(page);
  await widget.send('/clienttool test.hold {}');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'running');
  await expect(widget.toolCards.first().locator('.tool-progress')).toContainText('Holding on');
  const { run } = await readState(page);
  await expect.poll(() => readStoredReceipts(page)).toEqual([expect.objectContaining({ state: 'running' })]);

  await page.reload();
  await waitForDemo(page);
  widget = chat(page);
  await expect(placeOf(widget)).toHaveText('Needs reconciliation');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'unknown');
  expect(await countToolRuns(page, 'test.hold')).toBe(1);
  expect(await diagnostics(page)).toEqual([
    'test.hold replayed',
    'test.hold reconciling',
    'test.hold needs_reconciliation',
  ]);
  expect(await readStoredReceipts(page)).toEqual([]);
  const log = await readRunLog(page, run?.runId ?? '');
  console.log(['Reload in the middle of a handler:', ...describeTimeline(log)].join('\n'));
  expect(log.filter((event) => event.type === 'TOOL_CALL_CLAIMED')).toHaveLength(1);
  expect(log.filter((event) => event.type === 'TOOL_CALL_REPORTED').map((event) => event.data.code)).toEqual([
    'reconciliation_required',
  ]);
  await expect(widget.assistantMessages.last()).toContainText('The browser tool test.hold ended unknown');
});

test('a reload in the middle of a handler asks reconcile, and a confirmed outcome completes the call', async ({
  page,
  pageErrors: _errors,
}) => {
  let widget = await openToolDemo(page);
  await page.evaluate(() => localStorage.setItem('e2e:reconcile', 'completed'));
  await widget.send('/clienttool test.hold {}');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'running');
  await expect.poll(() => readStoredReceipts(page)).toEqual([expect.objectContaining({ state: 'running' })]);
  await page.reload();
  await waitForDemo(page);
  widget = chat(page);
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  await expect(widget.assistantMessages.last().locator('.message-body')).toHaveText(
    'The browser tool test.hold returned: {"reconciled":true}',
  );
  expect(await countToolRuns(page, 'test.hold')).toBe(1);
  expect(await diagnostics(page)).toEqual([
    'test.hold replayed',
    'test.hold reconciling',
    'test.hold reconciled',
    'test.hold delivered',
  ]);
});

test('a reload while the final receipt is on its way re-delivers the stored one, with the same receipt id, once', async ({
  page,
  pageErrors: _errors,
}) => {
  let widget = await openToolDemo(page);
  const sent: string[] = [];
  await page.route(RECEIPTS, async (route: Route) => {
    const body = route.request().postDataJSON() as { kind: string; receiptId: string };
    sent.push(`${body.kind} ${body.receiptId}`);
    // The first page's final receipt never gets through: the page is reloaded while it waits.
    if (body.kind === 'completed' && sent.filter((line) => line.startsWith('completed')).length === 1) return;
    await route.continue();
  });
  await widget.send('/clienttool test.quick {}');
  await expect.poll(() => sent.filter((line) => line.startsWith('completed')).length).toBe(1);
  const { run } = await readState(page);
  await page.reload();
  await waitForDemo(page);
  widget = chat(page);
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  // The server applied the first delivery, so the run may finish before the runner's retry is sent.
  const finalsSent = () => sent.filter((line) => line.startsWith('completed'));
  await expect.poll(() => finalsSent().length).toBe(2);
  const finals = finalsSent();
  expect(finals[1]).toBe(finals[0]);
  expect(await countToolRuns(page, 'test.quick')).toBe(1);
  expect(await diagnostics(page)).toEqual(['test.quick replayed', 'test.quick delivered']);
  const log = await readRunLog(page, run?.runId ?? '');
  console.log(['Reload while the final receipt was on its way:', ...describeTimeline(log)].join('\n'));
  expect(await receiptsOf(page, run?.runId ?? '')).toEqual([expect.stringMatching(/^accepted /), finals[0]]);
});

test('two tabs of one user: exactly one runs the handler, the other shows it running elsewhere', async ({
  page,
  context,
  pageErrors: _errors,
}) => {
  const first = await openToolDemo(page);
  await first.send('/clienttool test.hold {}');
  await expect(first.toolCards.first()).toHaveAttribute('data-status', 'running');
  const { sessionId } = await readState(page);

  const other = await context.newPage();
  const second = await openToolDemo(other);
  await other.evaluate((id) => (window as ToolTestWindow).agentChatDemo?.inline.client.restore(id), sessionId);
  await expect(second.toolCards.first()).toHaveAttribute('data-status', 'running');
  await expect(placeOf(second)).toHaveText('Running in another tab or browser');
  await expect(placeOf(first)).toHaveText('Running in this browser');
  expect(await countToolRuns(page, 'test.hold')).toBe(1);
  expect(await diagnostics(other)).toContain('test.hold elsewhere');
  await first.stopButton.click();
  await first.waitForIdle();
  expect(await countToolRuns(page, 'test.hold')).toBe(1);
  await other.close();
});

test('the network drops while the final receipt is delivered: it is retried with the same receipt id and applied once', async ({
  page,
  pageErrors: _errors,
}) => {
  const widget = await openToolDemo(page);
  const sent: string[] = [];
  await page.route(RECEIPTS, async (route: Route) => {
    const body = route.request().postDataJSON() as { kind: string; receiptId: string };
    sent.push(`${body.kind} ${body.receiptId}`);
    if (body.kind === 'completed' && sent.filter((line) => line.startsWith('completed')).length === 1) {
      // The server gets and applies it; the answer is lost on the way back.
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await widget.send('/clienttool test.quick {}');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  // The server applied the first delivery, so the run may finish before the runner's retry is sent.
  const finalsSent = () => sent.filter((line) => line.startsWith('completed'));
  await expect.poll(() => finalsSent().length).toBe(2);
  const finals = finalsSent();
  expect(finals[1]).toBe(finals[0]);
  const { run } = await readState(page);
  expect(await receiptsOf(page, run?.runId ?? '')).toEqual([expect.stringMatching(/^accepted /), finals[0]]);
  await expect.poll(() => readStoredReceipts(page)).toEqual([]);
});

test('Stop during a browser tool aborts its signal: cancelled when the handler confirms', async ({
  page,
  pageErrors: _errors,
}) => {
  const widget = await openToolDemo(page);
  await widget.send('/clienttool test.cancellable {}');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'running');
  await widget.stopButton.click();
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'cancelled');
  await expect(widget.toolCards.first().locator('.tool-status')).toHaveText('Cancelled in this browser');
  expect(await page.evaluate(() => (window as ToolTestWindow).toolAborts)).toEqual(['cancelled']);
  expect((await readState(page)).run?.status).toBe('cancelled');
});

test('Stop during a browser tool that does not confirm ends it unknown', async ({ page, pageErrors: _errors }) => {
  const widget = await openToolDemo(page);
  await widget.send('/clienttool test.hold {}');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'running');
  await widget.stopButton.click();
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'unknown');
  expect(await page.evaluate(() => (window as ToolTestWindow).toolAborts)).toEqual(['cancelled']);
});

test('logout revokes the runner (its handler aborted, no new claims); the next identity gets a new runner and store', async ({
  page,
  context,
  pageErrors: _errors,
}) => {
  const widget = await openToolDemo(page);
  await widget.send('/clienttool test.hold {}');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'running');
  const before = await page.evaluate(() => {
    const inline = (window as ToolTestWindow).agentChatDemo?.inline;
    return {
      executorId: inline?.client.getState().toolRunner?.executorId,
      identity: inline?.client.getState().bootstrap?.identity.identityId,
    };
  });
  await page.evaluate(() => (window as ToolTestWindow).agentChatDemo?.inline.client.resetIdentity());
  await expect.poll(() => page.evaluate(() => (window as ToolTestWindow).toolAborts)).toEqual(['revoked']);
  expect(
    await page.evaluate(() => (window as ToolTestWindow).agentChatDemo?.inline.client.getState().toolRunner),
  ).toBeNull();

  // Another user signs in on this browser.
  const cookie = (await context.cookies()).find((candidate) => candidate.name === 'agent_chat_demo');
  expect(cookie).toBeDefined();
  await context.addCookies([{ ...cookie!, value: 'demo_another-user-0001' }]);
  const after = await page.evaluate(async () => {
    const inline = (window as ToolTestWindow).agentChatDemo?.inline;
    await inline?.client.bootstrap();
    for (let tries = 0; tries < 100 && inline?.client.getState().toolRunner == null; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const databases = (await indexedDB.databases()).map((database) => database.name).sort();
    return {
      executorId: inline?.client.getState().toolRunner?.executorId,
      identity: inline?.client.getState().bootstrap?.identity.identityId,
      databases,
    };
  });
  expect(after.identity).not.toBe(before.identity);
  expect(after.executorId).not.toBe(before.executorId);
  expect(after.databases).toEqual([`agent-chat-tools:${before.identity}`, `agent-chat-tools:${after.identity}`].sort());
  expect(await countToolRuns(page, 'test.hold')).toBe(1);
});

test.describe('in Simplified Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the tool card says where a browser tool ran in zh-CN too', async ({ page, pageErrors: _errors }) => {
    const widget = await openToolDemo(page);
    await widget.send('/clienttool test.quick {}');
    await widget.waitForIdle();
    await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
    await expect(placeOf(widget)).toHaveText('在此浏览器中已完成');
  });
});
