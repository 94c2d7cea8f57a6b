import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, type DemoWindow } from './support/chat.ts';

/**
 * One hostile widget tree, and what the renderer must make of it. The server refuses trees off the
 * catalogue before they are logged (src/server/widgets/read-widget.test.ts); here the page's own
 * renderer meets them directly, in Chromium under the demo's strict CSP and Trusted Types.
 */
interface HostileWidget {
  name: string;
  root: unknown;
  /** Texts the rendering must show (each in order somewhere in the widget's text). */
  shows: string[];
  /** How many "can't show this" rows it renders. */
  unsupported: number;
}

const DEEP = (() => {
  let node: unknown = { type: 'text', text: 'bottom' };
  for (let level = 0; level < 50; level += 1) node = { type: 'box', children: [node] };
  return node;
})();

const HOSTILE: HostileWidget[] = [
  {
    name: 'a script URL image and a javascript: Markdown link',
    root: {
      type: 'column',
      children: [
        { type: 'image', src: 'javascript:alert(1)', alt: 'x' },
        { type: 'markdown', text: '[click](javascript:alert(1)) and <img src=x onerror=alert(1)>' },
      ],
    },
    shows: ['click'],
    unsupported: 1,
  },
  {
    name: 'an image from an origin the server does not allow',
    root: { type: 'image', src: 'https://evil.example/track.png', alt: 'tracker' },
    shows: [],
    unsupported: 1,
  },
  {
    name: 'markup and style injection in text',
    root: {
      type: 'card',
      children: [
        { type: 'title', text: '<script>alert(1)</script>' },
        { type: 'text', text: '<style>*{display:none}</style>', style: 'color:red', onclick: 'alert(1)' },
        { type: 'badge', text: 'ok', tone: "x' onmouseover='alert(1)" },
      ],
    },
    shows: ['<script>alert(1)</script>', '<style>*{display:none}</style>', 'ok'],
    unsupported: 0,
  },
  {
    name: 'unknown node types',
    root: {
      type: 'row',
      children: [
        { type: 'iframe', src: 'https://evil.example' },
        { type: 'html', html: '<b>x</b>' },
        { type: 'text', text: 'kept' },
      ],
    },
    shows: ['kept'],
    unsupported: 2,
  },
  {
    name: 'deep nesting',
    root: DEEP,
    shows: [],
    unsupported: 1,
  },
  {
    name: 'a huge tree',
    root: {
      type: 'column',
      children: Array.from({ length: 100 }, () => ({
        type: 'row',
        children: Array.from({ length: 5 }, () => ({ type: 'divider' })),
      })),
    },
    shows: [],
    unsupported: 1,
  },
  {
    name: '10,000 table rows',
    root: { type: 'table', columns: ['a'], rows: Array.from({ length: 10_000 }, (_, index) => [`row ${index}`]) },
    shows: [],
    unsupported: 1,
  },
  {
    name: 'a ragged table and a form field of no known type',
    root: {
      type: 'column',
      children: [
        { type: 'table', columns: ['a', 'b'], rows: [['only one']] },
        { type: 'form', action: 'a', submitLabel: 'Go', fields: [{ type: 'file', name: 'f', label: 'Upload' }] },
      ],
    },
    shows: ['Go'],
    unsupported: 2,
  },
];

/** Renders `root` in a fresh `<agent-chat-widget>` inside the widget's shadow root and reads what it made. */
async function renderHostile(page: Page, root: unknown) {
  return page.evaluate(async (tree) => {
    const host = document.querySelector('#inline-chat agent-chat') as HTMLElement;
    const transcript = host.shadowRoot!.querySelector('.transcript-content') ?? host.shadowRoot!;
    type WidgetElement = HTMLElement & { widget: unknown; strings: unknown };
    const shown = host.shadowRoot!.querySelector('agent-chat-widget') as WidgetElement;
    const element = document.createElement('agent-chat-widget') as WidgetElement;
    transcript.append(element);
    element.strings = shown.strings;
    element.widget = { widgetId: 'hostile', digest: 'sha256:x', root: tree };
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const all = [...element.querySelectorAll('*')];
    const report = {
      text: element.textContent?.replace(/\s+/g, ' ') ?? '',
      unsupported: element.querySelectorAll('.widget-unsupported').length,
      scripts: element.querySelectorAll('script, style, iframe, object, embed').length,
      handlers: all.filter((node) => [...node.attributes].some((attribute) => attribute.name.startsWith('on'))).length,
      styles: all.filter((node) => node.hasAttribute('style')).length,
      badUrls: all.filter((node) =>
        ['href', 'src', 'action', 'formaction'].some((name) =>
          /^\s*(javascript|data|vbscript):/i.test(node.getAttribute(name) ?? ''),
        ),
      ).length,
      images: element.querySelectorAll('img').length,
      rows: element.querySelectorAll('tr').length,
    };
    element.remove();
    return report;
  }, root);
}

test.describe('declarative widgets', () => {
  test('a hostile widget tree renders safely: text as text, the rest as "can’t show this"', async ({
    page,
    pageErrors: _errors,
  }) => {
    await page.addInitScript(() => {
      window.alert = () => {
        (window as unknown as { alerted?: boolean }).alerted = true;
      };
    });
    await openDemo(page);
    const widget = chat(page);
    await widget.send('/widget');
    await expect(widget.root.locator('agent-chat-widget .widget-title')).toHaveText('Order A-1042');
    for (const hostile of HOSTILE) {
      const report = await renderHostile(page, hostile.root);
      expect.soft(report.unsupported, hostile.name).toBe(hostile.unsupported);
      expect
        .soft([report.scripts, report.handlers, report.styles, report.badUrls, report.images], hostile.name)
        .toEqual([0, 0, 0, 0, 0]);
      expect.soft(report.rows, hostile.name).toBeLessThanOrEqual(201);
      for (const text of hostile.shows) expect.soft(report.text, hostile.name).toContain(text);
    }
    expect(await page.evaluate(() => (window as unknown as { alerted?: boolean }).alerted)).toBeUndefined();
  });

  test('/widget: Track answers, and the keyboard-submitted address form updates the card', async ({
    page,
    pageErrors: _errors,
  }) => {
    await openDemo(page);
    const widget = chat(page);
    await widget.send('/widget');
    const card = widget.root.locator('agent-chat-widget').last();
    await expect(card.locator('.widget-title')).toHaveText('Order A-1042');
    await expect(card.locator('.widget-table tbody tr')).toHaveCount(2);
    await expect(card.locator('dd').last()).toHaveText('12 Harbour Street, Leith, Edinburgh EH6 6QR');
    // The card shows before its turn's last sentence ends; an action is taken once the turn is over.
    await widget.waitForIdle();

    await card.getByRole('button', { name: 'Track' }).click();
    await expect(widget.assistantMessages.last()).toContainText('Order A-1042 left the Leith depot this morning.');
    await widget.waitForIdle();

    // Keyboard only: the field, the select, then submit with Enter on the button.
    const form = widget.root.locator('agent-chat-widget').last().locator('form');
    await form.getByLabel('New address').fill('1 Rose Street, Edinburgh EH2 2PR');
    await form.getByLabel('Delivery window').selectOption('evening');
    await form.getByRole('button', { name: 'Change address' }).focus();
    await page.keyboard.press('Enter');
    await expect(widget.assistantMessages.last()).toContainText(
      'The address of order A-1042 is now 1 Rose Street, Edinburgh EH2 2PR.',
    );
    await widget.waitForIdle();
    const updated = widget.root.locator('agent-chat-widget').last();
    await expect(updated.locator('dd').last()).toHaveText('1 Rose Street, Edinburgh EH2 2PR');
    await expect(updated.locator('.widget-submitted')).toHaveText('Submitted');

    // The old card stays as it was shown; the form's action is gone from the updated one.
    await expect(updated.getByRole('button', { name: 'Change address' })).toHaveCount(0);

    // A reload shows every card as it was last shown, under its own turn, and a restored card still acts.
    const cardCount = await widget.root.locator('agent-chat-widget').count();
    await page.reload();
    const restored = chat(page);
    const cards = restored.root.locator('agent-chat-widget');
    await expect(cards).toHaveCount(cardCount);
    await expect(cards.first().locator('dd').last()).toHaveText('12 Harbour Street, Leith, Edinburgh EH6 6QR');
    await expect(cards.last().locator('dd').last()).toHaveText('1 Rose Street, Edinburgh EH2 2PR');
    await expect(cards.last().locator('.widget-submitted')).toHaveText('Submitted');
    await cards.last().getByRole('button', { name: 'Track' }).click();
    await expect(restored.assistantMessages.last()).toContainText('Order A-1042 left the Leith depot this morning.');
    await restored.waitForIdle();
    await expect(restored.root.locator('agent-chat-widget')).toHaveCount(cardCount + 1);
  });
});

test.describe('a widget updated while its run goes on', () => {
  test('/widget track: tracking updates the card shown above in place, and it acts and reloads as updated', async ({
    page,
    pageErrors: _errors,
  }) => {
    await openDemo(page);
    const widget = chat(page);
    await widget.send('/widget track');
    await expect(widget.assistantMessages.last()).toContainText('the card above now says so');
    await widget.waitForIdle();
    const cards = widget.root.locator('agent-chat-widget');
    await expect(cards).toHaveCount(1);
    await expect(cards.locator('.widget-badge')).toHaveText('Out for delivery');

    // The action names the updated card's digest, so it is not stale.
    await cards.getByRole('button', { name: 'Track' }).click();
    await expect(widget.assistantMessages.last()).toContainText('Order A-1042 left the Leith depot this morning.');
    await widget.waitForIdle();

    await page.reload();
    const restored = chat(page).root.locator('agent-chat-widget');
    await expect(restored.first().locator('.widget-badge')).toHaveText('Out for delivery');
  });
});

test.describe('axe finds nothing on the order card', () => {
  // axe-core's own build is injected into the page: the test context lifts the page's CSP for it.
  test.use({ bypassCSP: true });
  for (const theme of ['light', 'dark'] as const) {
    test(`in the ${theme} theme`, async ({ page, pageErrors: _errors }) => {
      await openDemo(page);
      await page.evaluate((scheme) => {
        Object.assign((window as DemoWindow).agentChatDemo!.inline.element, { theme: scheme });
      }, theme);
      const widget = chat(page);
      await widget.send('/widget');
      await expect(widget.root.locator('agent-chat-widget form')).toBeVisible();
      await page.evaluate(await readFile('node_modules/axe-core/axe.min.js', 'utf8'));
      const { violations, passed } = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } })
          .axe;
        const results = await axe.run({ include: [['#inline-chat']] }, { resultTypes: ['violations', 'passes'] });
        return {
          violations: results.violations.map(
            (v) => `${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`,
          ),
          passed: results.passes.map((rule) => rule.id),
        };
      });
      expect(violations).toEqual([]);
      expect(passed).toEqual(expect.arrayContaining(['color-contrast', 'label', 'button-name']));
    });
  }
});
