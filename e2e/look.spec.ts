import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, type DemoWindow } from './support/chat.ts';

/** Where every state's screenshot goes: a test artifact (test-results/ is not committed). */
const SHOTS = 'test-results/screenshots';

/** Mounts a fresh inline widget with `options` in place of the demo's, as a product would. */
async function remount(page: Page, options: Record<string, unknown>): Promise<void> {
  await page.evaluate(async (extra) => {
    const demo = (window as DemoWindow).agentChatDemo!;
    demo.inline.destroy();
    sessionStorage.clear();
    const mounted = window.AgentChat!.mount('#inline-chat', { endpoint: '/api/agent', ...extra });
    demo.inline = mounted as never;
    await mounted.ready;
  }, options);
}

/** Every tap target the widget shows: its buttons and disclosure summaries, with their sizes. */
async function tapTargets(
  page: Page,
  container: string,
): Promise<Array<{ name: string; width: number; height: number }>> {
  return page.locator(`${container} agent-chat`).evaluate((element) =>
    Array.from(element.shadowRoot!.querySelectorAll<HTMLElement>('button, summary'))
      .filter((target) => target.getClientRects().length > 0)
      .map((target) => {
        const box = target.getBoundingClientRect();
        return {
          name: target.getAttribute('part') ?? target.className ?? target.tagName,
          width: box.width,
          height: box.height,
        };
      }),
  );
}

test.describe('at 375 × 700 (a phone)', () => {
  test.use({ viewport: { width: 375, height: 700 } });

  test('nothing overflows sideways, code and tables scroll inside, every field is 16 px, taps are 44 × 44, an approval too', async ({
    page,
    pageErrors: _errors,
  }) => {
    await openDemo(page);
    const widget = chat(page);
    await widget.send('/long 3000');
    await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'complete');
    await widget.send('/echo ```\nconst aVeryLongLineOfCode = "' + 'x'.repeat(200) + '";\n```');
    await expect(widget.assistantMessages.last().locator('pre', { hasText: 'aVeryLongLineOfCode' })).toBeVisible();
    await widget.waitForIdle();
    const layout = await widget.root.evaluate((element) => {
      const root = element.shadowRoot!;
      const transcript = root.querySelector('.transcript') as HTMLElement;
      const pres = Array.from(root.querySelectorAll<HTMLElement>('.markdown pre'));
      const tables = Array.from(root.querySelectorAll<HTMLElement>('.markdown table'));
      const widest = (items: HTMLElement[]) => items.find((item) => item.scrollWidth > item.clientWidth);
      const pre = widest(pres);
      const copy = pre?.querySelector('.ac-copy')?.getBoundingClientRect();
      return {
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        widgetRight: element.getBoundingClientRect().right,
        transcriptOverflow: transcript.scrollWidth - transcript.clientWidth,
        preScrolls: pre !== undefined && getComputedStyle(pre).overflowX === 'auto',
        copyInside: copy !== undefined && copy.right <= transcript.getBoundingClientRect().right,
        tablesInside: tables.every(
          (table) => table.getBoundingClientRect().right <= transcript.getBoundingClientRect().right + 0.5,
        ),
        // Every field (the composer, an answer's Edit and comment forms): below 16 px iOS zooms in.
        inputFonts: [
          ...new Set(Array.from(root.querySelectorAll('textarea'), (field) => getComputedStyle(field).fontSize)),
        ],
      };
    });
    expect(layout).toEqual({
      pageOverflow: 0,
      widgetRight: expect.any(Number),
      transcriptOverflow: 0,
      preScrolls: true,
      copyInside: true,
      tablesInside: true,
      inputFonts: ['16px'],
    });
    expect(layout.widgetRight).toBeLessThanOrEqual(375);
    let small = (await tapTargets(page, '#inline-chat')).filter((target) => target.width < 44 || target.height < 44);
    expect(small).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/mobile.png` });
    // An approval card with its Details open fits too, its disclosure and buttons 44 x 44.
    await widget.send('/approval');
    const card = widget.approvalCards.last();
    await expect(card).toHaveAttribute('data-state', 'open');
    await card.locator('.approval-details summary').click();
    await expect(card.locator('.approval-json')).toBeVisible();
    const box = await card.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    small = (await tapTargets(page, '#inline-chat')).filter((target) => target.width < 44 || target.height < 44);
    expect(small).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/mobile-approval.png` });
  });

  test('the launcher opens full screen below 480 px, with a 44 px close in its header', async ({
    page,
    pageErrors: _errors,
  }) => {
    await openDemo(page);
    await page.locator('#launcher [part="launcher-button"]').click();
    const panel = page.locator('#launcher [part="launcher-panel"]');
    await expect(panel).toBeVisible();
    // The panel's opening transition settles first.
    await panel.evaluate((element) => Promise.all(element.getAnimations().map((animation) => animation.finished)));
    expect(await panel.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 700 });
    await expect(page.locator('#launcher [part="launcher-button"]')).toBeHidden();
    const targets = await tapTargets(page, '#launcher');
    expect(targets.filter((target) => target.width < 44 || target.height < 44)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/mobile-launcher.png` });
    await chat(page, '#launcher').root.locator('[part="close-button"]').click();
    await expect(panel).toBeHidden();
    await expect(page.locator('#launcher [part="launcher-button"]')).toBeFocused();
  });
});

test('the launcher panel opens and closes with a short transition, and without one under prefers-reduced-motion', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const panel = page.locator('#launcher [part="launcher-panel"]');
  const transition = () =>
    panel.evaluate((element) => {
      const style = getComputedStyle(element);
      return { property: style.transitionProperty, duration: style.transitionDuration };
    });
  expect(await transition()).toEqual({ property: 'opacity, transform, display', duration: '0.18s, 0.18s, 0.18s' });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect((await transition()).duration).toBe('0s');
  await page.locator('#launcher [part="launcher-button"]').click();
  await expect(panel).toBeVisible();
  expect(await panel.evaluate((element) => element.getAnimations().length)).toBe(0);
});

test('right to left: the widget and the launcher mirror, code stays left to right', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
  const widget = chat(page);
  await widget.send('/echo مرحبا بالعالم\n\n```\nconst answer = 42;\n```');
  await expect(widget.assistantMessages.last().locator('pre')).toBeVisible();
  await widget.waitForIdle();
  const geometry = await widget.root.evaluate((element) => {
    const root = element.shadowRoot!;
    const box = (selector: string) => root.querySelector(selector)!.getBoundingClientRect();
    const widgetBox = element.getBoundingClientRect();
    const pre = root.querySelector('.markdown pre') as HTMLElement;
    return {
      direction: getComputedStyle(root.querySelector('.transcript')!).direction,
      userBubbleAtLeft:
        box('[part~="user-message"]').left - widgetBox.left < widgetBox.right - box('[part~="user-message"]').right,
      sendAtLeft: box('[part="send-button"]').left < box('textarea').left,
      codeDirection: getComputedStyle(pre).direction,
      codeAlign: getComputedStyle(pre).textAlign,
    };
  });
  expect(geometry).toEqual({
    direction: 'rtl',
    userBubbleAtLeft: true,
    sendAtLeft: true,
    codeDirection: 'ltr',
    codeAlign: 'left',
  });
  const launcher = await page.locator('#launcher [part="launcher-button"]').boundingBox();
  expect(launcher!.x).toBeLessThan(100);
  await page.locator('#launcher [part="launcher-button"]').click();
  const panel = await page.locator('#launcher [part="launcher-panel"]').boundingBox();
  expect(panel!.x).toBeLessThan(100);
  await page.screenshot({ path: `${SHOTS}/rtl.png` });
});

test('an RTL locale whose strings the product supplies mirrors the widget on a left-to-right page', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  await remount(page, { locale: 'ar', strings: { send: 'إرسال', composerPlaceholder: 'اكتب رسالة…' } });
  const widget = chat(page);
  await expect(widget.root).toHaveAttribute('dir', 'rtl');
  await expect(widget.sendButton).toHaveAttribute('aria-label', 'إرسال');
  await expect(widget.input).toHaveAttribute('placeholder', 'اكتب رسالة…');
  expect(await widget.root.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
});

// The screenshots of the widget's states come from the gallery (e2e/gallery.spec.ts); this test
// keeps the live flow through them on the demo, and saves only what the gallery does not show.
test('the live flow through every state: suggestion, reasoning, stop, tool, approval, failure, sheet, theme, zh-CN, launcher', async ({
  page,
  pageErrors: _errors,
}) => {
  await page.setViewportSize({ width: 1100, height: 760 });
  await openDemo(page);
  await remount(page, {
    title: 'Acme Assistant',
    suggestions: ['Where is my order?', 'What can you do?', 'Delete a draft'],
  });
  const widget = chat(page);
  await expect(widget.root.locator('[part="empty-state"]')).toBeVisible();

  await widget.root.locator('[part="suggestion"]').nth(1).click();
  await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'complete');
  await widget.reasoning.first().locator('summary').click();
  await expect(widget.reasoning.first()).toHaveAttribute('open', '');

  await widget.send('/slow');
  await expect(widget.assistantMessages.last()).toHaveAttribute('data-status', 'streaming');
  await expect(widget.assistantMessages.last()).toHaveText(/[\s\S]{60}/);
  await widget.stopButton.click();
  await widget.waitForIdle();

  await widget.send('/tool');
  await widget.waitForIdle();
  await expect(widget.toolCards.last()).toHaveAttribute('data-status', 'completed');

  await widget.send('/approval');
  await expect(widget.approvalCards.last()).toHaveAttribute('data-state', 'open');
  await expect(widget.approvalCards.last()).toHaveAttribute('data-destructive', '');
  await widget.approvalCards.last().locator('[part="deny-button"]').click();
  await widget.waitForIdle();

  await widget.send('/fail');
  await expect(widget.root.locator('[part="run-error"]').last()).toBeVisible();
  await widget.waitForIdle();

  // The conversations sheet (agent-chat.conversations.js is loaded on the demo page) over this conversation.
  await widget.root.locator('[part="conversations-button"]').click();
  await expect(widget.root.locator('agent-chat-conversations li.row')).toHaveCount(1);
  await widget.root.screenshot({ path: `${SHOTS}/conversations.png` });
  await page.keyboard.press('Escape');
  await expect(widget.root.locator('agent-chat-conversations')).toHaveCount(0);

  await widget.root.evaluate((element) => element.setAttribute('theme', 'dark'));
  await expect(widget.root).toHaveAttribute('theme', 'dark');

  await remount(page, { locale: 'zh-CN', suggestions: ['我的订单在哪里？'] });
  await widget.send('/approval');
  await expect(widget.approvalCards.last()).toHaveAttribute('data-state', 'open');
  await expect(widget.approvalCards.last().locator('h3')).toHaveText('删除草稿“Quarterly report (unfinished)”？');
  await expect(widget.approvalCards.last().locator('.approval-consequence')).toHaveText('此操作无法撤销。');
  await widget.root.screenshot({ path: `${SHOTS}/zh-CN.png` });

  await page.locator('#launcher [part="launcher-button"]').click();
  await expect(page.locator('#launcher [part="launcher-panel"]')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/launcher.png` });
});
