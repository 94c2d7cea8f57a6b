import type { Locator, Page } from '@playwright/test';
import { DEMO_CSP } from '../demo/serve-demo.ts';
import { test, expect } from './support/fixtures.ts';
import {
  openGallery,
  GALLERY_SHOTS,
  galleryWidget,
  screenshotWidget,
  type GalleryTheme,
  type GalleryWidth,
} from './support/gallery.ts';

const THEMES: readonly GalleryTheme[] = ['light', 'dark'];
const WIDTHS: Readonly<Record<GalleryWidth, number>> = { desktop: 420, phone: 360 };

/** What each state of the gallery must show, checked in each of its four widgets. */
const STATE_CHECKS: Record<string, (widget: Locator) => Promise<void>> = {
  empty: async (widget) => {
    await expect(widget.locator('[part="empty-state"]')).toBeVisible();
    await expect(widget.locator('[part="suggestion"]')).toHaveText([
      'Where is my order?',
      'What can you do?',
      'Delete a draft',
    ]);
  },
  thinking: async (widget) => {
    await expect(widget.locator('[part="working"]')).toBeVisible();
    await expect(widget.locator('[part="working"]')).toHaveText('Thinking…');
    await expect(widget.locator('[part~="stop-button"]')).toBeVisible();
  },
  'model-retry': async (widget) => {
    await expect(widget.locator('[part="working"]')).toHaveText('Retrying in 10 minutes…');
  },
  streaming: async (widget) => {
    await expect(widget.locator('[part="reasoning"]')).toHaveAttribute('open', '');
    const answer = widget.locator('[part~="assistant-message"]');
    await expect(answer).toHaveAttribute('data-status', 'streaming');
    await expect(answer.locator('li strong').first()).toHaveText('Orders');
  },
  tools: async (widget) => {
    const cards = widget.locator('[part~="tool-card"]');
    await expect(cards).toHaveCount(4);
    for (const status of ['completed', 'failed', 'denied', 'running']) {
      await expect(widget.locator(`[part~="tool-card"][data-status="${status}"]`)).toBeVisible();
    }
    await expect(widget.locator('[part~="tool-card"][data-status="running"] progress')).toBeVisible();
  },
  approval: async (widget) => {
    const card = widget.locator('[part~="approval-card"]');
    await expect(card).toHaveAttribute('data-state', 'open');
    await expect(card).toHaveAttribute('data-destructive', '');
    await expect(card.locator('h3')).toHaveText('Delete the draft "Q3 plan (old)"?');
    await expect(card.locator('.approval-consequence')).toHaveText("This can't be undone.");
    await expect(card.locator('.approval-arg dt')).toHaveText(['draftId', 'title']);
    await expect(card.locator('.approval-arg dd')).toHaveText(['d-2', 'Q3 plan (old)']);
    await expect(card.locator('.approval-json')).toBeHidden();
    await expect(card.locator('.approval-details summary')).toHaveText('Details');
    await expect(card.locator('[part="allow-button"]')).toHaveText('Allow');
    await expect(card.locator('[part="deny-button"]')).toHaveText('Deny');
    await expect(widget.locator('[part~="tool-card"][data-status="completed"]')).toBeVisible();
  },
  proposal: async (widget) => {
    const card = widget.locator('[part~="approval-card"]');
    await expect(card).toHaveAttribute('data-state', 'open');
    await expect(card.locator('h3')).toHaveText('Proposed: Update profile');
    await expect(card.locator('.approval-message')).toHaveText('Change your city and the second line of your bio.');
    await expect(card.locator('[part="allow-button"]')).toHaveText('Apply');
    await expect(card.locator('[part="deny-button"]')).toHaveText('Dismiss');
  },
  'failed-answer': async (widget) => {
    const failure = widget.locator('[part="run-error"]');
    await expect(failure).toContainText('This answer failed: The model stopped answering.');
    await expect(failure.locator('[part="retry-button"]')).toBeVisible();
    await expect(widget.locator('[part~="assistant-message"]')).toHaveAttribute('data-status', 'error');
  },
  'failed-request': async (widget) => {
    const error = widget.locator('[part="error"]');
    await expect(error).toContainText('The server could not be reached.');
    await expect(error.locator('.reference')).toHaveText('req_01HZX4G7');
    await expect(error.locator('[part="retry-button"]')).toBeVisible();
    await expect(widget.locator('[part="run-error"]')).toHaveCount(0);
  },
  reconnecting: async (widget) => {
    await expect(widget.locator('[part="status"]')).toHaveText('Reconnecting…');
    await expect(widget.locator('[part~="assistant-message"]')).toHaveAttribute('data-status', 'streaming');
  },
  stopping: async (widget) => {
    await expect(widget.locator('[part="status"]')).toHaveText('Stopping…');
  },
  long: async (widget) => {
    const answer = widget.locator('[part~="assistant-message"]');
    await expect(answer).toHaveAttribute('data-status', 'complete');
    await expect(answer.locator('pre code')).toContainText("fetch('/api/orders/A-1001/tracking')");
    await expect(answer.locator('table tr')).toHaveCount(4);
    await expect(answer.locator('ol > li')).toHaveCount(3);
    await expect(answer.locator('ul > li')).toHaveCount(2);
    await expect(answer.locator('pre code .hljs-keyword').first()).toHaveText('const');
  },
  code: async (widget) => {
    const blocks = widget.locator('[part~="assistant-message"] pre.ac-code');
    await expect(blocks).toHaveCount(2);
    await expect(blocks.locator('.ac-code-lang')).toHaveText(['ts', 'json']);
    await expect(blocks.locator(':scope > button.ac-copy')).toHaveCount(2);
    await expect(blocks.nth(0).locator('code .hljs-keyword').first()).toHaveText('export');
    await expect(blocks.nth(0).locator('code .hljs-comment')).toContainText('Tries `task`');
    await expect(blocks.nth(1).locator('code .hljs-attr').first()).toHaveText('"attempts"');
  },
  widget: async (widget) => {
    const card = widget.locator('agent-chat-widget');
    await expect(card.locator('.widget-title')).toHaveText('Order A-1042');
    await expect(card.locator('.widget-table tbody tr')).toHaveCount(2);
    await expect(card.getByRole('button', { name: 'Track' })).toBeVisible();
    await expect(card.locator('form').getByLabel('New address')).toBeVisible();
  },
  'widget-catalogue': async (widget) => {
    const card = widget.locator('agent-chat-widget');
    await expect(card.locator('.widget-title')).toHaveText('Book a return');
    await expect(card.locator('ol > li')).toHaveCount(2);
    await expect(card.locator('strong')).toHaveText('returns policy');
    await expect(card.locator('input[type="date"]')).toHaveValue('2026-12-10');
    await expect(card.locator('input[type="radio"]')).toHaveCount(2);
    await expect(card.locator('input[type="checkbox"]')).toBeChecked();
    await expect(card.locator('.widget-submitted')).toHaveText('Submitted');
    await expect(card.getByRole('button', { name: 'Disabled' })).toBeDisabled();
    await expect(card.locator('.widget-unsupported')).toHaveCount(0);
  },
  rtl: async (widget) => {
    await expect(widget).toHaveAttribute('dir', 'rtl');
    await expect(widget.locator('[part~="send-button"]')).toHaveAttribute('aria-label', 'إرسال');
    await expect(widget.locator('agent-chat-widget .widget-title')).toHaveText('الطلب A-1001');
    const directions = await widget.evaluate((element) => {
      const root = element.shadowRoot!;
      const card = root.querySelector('agent-chat-widget')!;
      const key = card.querySelector('dt')!.getBoundingClientRect();
      const value = card.querySelector('dd')!.getBoundingClientRect();
      return {
        transcript: getComputedStyle(root.querySelector('.transcript')!).direction,
        code: getComputedStyle(root.querySelector('.markdown pre')!).direction,
        widget: getComputedStyle(card).direction,
        // Right to left, a key–value pair reads from the right: the key stands right of its value.
        isKeyRightOfValue: key.left >= value.right,
      };
    });
    expect(directions).toEqual({ transcript: 'rtl', code: 'ltr', widget: 'rtl', isKeyRightOfValue: true });
  },
};

/** The states the page lists, in its order. */
function listStates(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { agentChatGallery: { states: Array<{ id: string }> } }).agentChatGallery.states.map(
      (state) => state.id,
    ),
  );
}

test.describe('the gallery (/gallery.html): every state of the widget from fixed data', () => {
  test.use({ viewport: { width: 1680, height: 900 } });

  test('is served under the demo CSP with agent-chat.js pinned, and lists every state with a heading and four widgets', async ({
    page,
    pageErrors: _errors,
  }) => {
    const response = await openGallery(page);
    expect(response.headers['content-security-policy']).toBe(DEMO_CSP);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    await expect(page.locator('script[src="/agent-chat.js"]')).toHaveAttribute('integrity', /^sha384-/);

    const states = await listStates(page);
    expect(states).toEqual(Object.keys(STATE_CHECKS));
    await expect(page.locator('.gallery-state > h2')).toHaveCount(states.length);
    await expect(page.locator('.gallery-state agent-chat')).toHaveCount(states.length * 4);
    for (const state of states) {
      await expect(page.locator(`[data-state="${state}"] > h2`)).not.toBeEmpty();
      await expect(page.locator(`[data-state="${state}"] agent-chat`)).toHaveCount(4);
    }
    expect(await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations)).toEqual([]);
    await expect(page.locator('#csp-violation-count')).toHaveText('0');
  });

  for (const [state, check] of Object.entries(STATE_CHECKS)) {
    test(`${state}: renders in both themes at both widths (screenshots saved under ${GALLERY_SHOTS})`, async ({
      page,
      pageErrors: _errors,
    }) => {
      await openGallery(page);
      for (const theme of THEMES) {
        for (const [width, pixels] of Object.entries(WIDTHS) as Array<[GalleryWidth, number]>) {
          const widget = galleryWidget(page, state, theme, width);
          await expect(widget).toHaveAttribute('theme', theme);
          expect((await widget.boundingBox())?.width).toBe(pixels);
          expect(await widget.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
            theme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)',
          );
          await test.step(`${theme}, ${width}`, () => check(widget));
          await screenshotWidget(widget, `${GALLERY_SHOTS}/${state}-${theme}-${width}.png`);
        }
      }
      expect(await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations)).toEqual([]);
    });
  }
});
