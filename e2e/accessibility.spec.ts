import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, type DemoWindow } from './support/chat.ts';

/** axe-core's own build, injected into the page (the test context lifts the page's CSP for it). */
const AXE_SOURCE = readFile('node_modules/axe-core/axe.min.js', 'utf8');

/** Runs axe on both widgets of the demo (the inline one and the open launcher): the violations, and the rules that passed. */
async function checkWidgets(page: Page): Promise<{ violations: string[]; passed: string[] }> {
  await page.evaluate(await AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }).axe;
    const results = await axe.run(
      { include: [['#inline-chat'], ['#launcher']] },
      { resultTypes: ['violations', 'passes'] },
    );
    return {
      violations: results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      ),
      passed: results.passes.map((rule) => rule.id),
    };
  });
}

/** Rules that must have run and passed, so an empty violation list means something. */
const CHECKED_RULES = ['button-name', 'color-contrast', 'aria-dialog-name', 'aria-allowed-attr'];

/**
 * Opens the demo with highlighted code, a tool card and a waiting approval (its Details open) in
 * the inline widget and the launcher open, in `theme`.
 */
async function openBusyDemo(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await openDemo(page);
  await page.evaluate((scheme) => {
    const demo = (window as DemoWindow).agentChatDemo!;
    for (const element of [demo.inline.element, demo.launcher?.element])
      Object.assign(element ?? {}, { theme: scheme });
  }, theme);
  const widget = chat(page);
  // Highlighted code (agent-chat.highlight.js): its colours are checked for contrast too.
  await widget.send('/code');
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last().locator('code .hljs-keyword').first()).toBeVisible();
  await widget.send('/tool');
  await widget.waitForIdle();
  await widget.send('/approval');
  await expect(widget.approvalCards).toHaveCount(1);
  // Its Details open, so the scan reaches the tool's name and the exact JSON too.
  await widget.approvalCards.locator('.approval-details summary').click();
  await expect(widget.approvalCards.locator('.approval-json')).toBeVisible();
  await page.locator('#launcher [part="launcher-button"]').click();
  await expect(page.locator('#launcher [part="launcher-panel"]')).toBeVisible();
}

test.describe('axe finds nothing on the demo: tool card, approval, header, composer and the open launcher', () => {
  test.use({ bypassCSP: true });

  for (const theme of ['light', 'dark'] as const) {
    test(`in the ${theme} theme`, async ({ page, pageErrors: _errors }) => {
      await openBusyDemo(page, theme);
      const { violations, passed } = await checkWidgets(page);
      expect(violations).toEqual([]);
      // The scan reached the buttons, the colours, the dialog and the live regions.
      expect(passed).toEqual(expect.arrayContaining(CHECKED_RULES));
    });
  }

  for (const theme of ['light', 'dark'] as const) {
    test(`with the conversations sheet open in both widgets, in the ${theme} theme`, async ({
      page,
      pageErrors: _errors,
    }) => {
      await openBusyDemo(page, theme);
      for (const container of ['#inline-chat', '#launcher']) {
        const widget = chat(page, container);
        await widget.root.locator('[part~="conversations-button"]').click();
        // The conversation waiting for the approval is listed, "Answering…", its delete disabled.
        await expect(widget.root.locator('agent-chat-conversations li.row')).toHaveCount(1);
        await expect(widget.root.locator('agent-chat-conversations li.row')).toContainText('Answering…');
      }
      // A row being renamed: its text field and buttons are checked too.
      const launcherSheet = page.locator('#launcher agent-chat-conversations');
      await launcherSheet.locator('.rename-button').click();
      await expect(launcherSheet.getByRole('textbox', { name: 'New title' })).toBeFocused();
      const { violations, passed } = await checkWidgets(page);
      expect(violations).toEqual([]);
      expect(passed).toEqual(expect.arrayContaining(CHECKED_RULES));
    });
  }

  test.describe('at 375 × 700, right to left', () => {
    test.use({ viewport: { width: 375, height: 700 } });

    test('in the dark theme', async ({ page, pageErrors: _errors }) => {
      await openBusyDemo(page, 'dark');
      await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
      const { violations, passed } = await checkWidgets(page);
      expect(violations).toEqual([]);
      expect(passed).toEqual(expect.arrayContaining(CHECKED_RULES));
    });
  });
});

test.describe('axe finds nothing on a waiting proposal: its fields and coloured diff lines, Apply and Dismiss', () => {
  test.use({ bypassCSP: true });

  for (const theme of ['light', 'dark'] as const) {
    test(`in the ${theme} theme`, async ({ page, pageErrors: _errors }) => {
      await openDemo(page);
      await page.evaluate(
        (scheme) => Object.assign((window as DemoWindow).agentChatDemo!.inline.element, { theme: scheme }),
        theme,
      );
      const widget = chat(page);
      await widget.send('/propose');
      await expect(widget.approvalCards.locator('[data-change="added"]')).toHaveText('+ Tea drinker.');
      const { violations, passed } = await checkWidgets(page);
      expect(violations).toEqual([]);
      expect(passed).toEqual(expect.arrayContaining(['button-name', 'color-contrast']));
    });
  }
});
