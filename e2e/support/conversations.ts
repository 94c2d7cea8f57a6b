import { expect, type Locator, type Page } from '@playwright/test';
import type { DemoState } from './chat.ts';

/** Renames the row of `panel` titled `from` to `to` inline, by keyboard (select all, type, Enter). */
export async function renameRow(page: Page, panel: Locator, from: string, to: string): Promise<void> {
  const rows = panel.locator('li.row');
  await rows.filter({ hasText: from }).locator('.rename-button').click();
  await expect(panel.getByRole('textbox', { name: 'New title' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(to);
  await page.keyboard.press('Enter');
  await expect(rows.filter({ hasText: to })).toHaveCount(1);
}

/** Deletes the row of `panel` titled `title`: a first Cancel keeps it, then Delete confirms. */
export async function deleteRowAfterCancel(panel: Locator, title: string): Promise<void> {
  const rows = panel.locator('li.row');
  const countBefore = await rows.count();
  await rows.filter({ hasText: title }).locator('.delete-button').click();
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows).toHaveCount(countBefore);
  await rows.filter({ hasText: title }).locator('.delete-button').click();
  await panel.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(rows).toHaveCount(countBefore - 1);
  await expect(rows.filter({ hasText: title })).toHaveCount(0);
}

/** The handle `/conversations.html` exposes for tests: its one widget's client. */
interface ConversationsWindow extends Window {
  agentChatDemo?: { chat: { client: { getState(): DemoState } } };
}

/** The state of the widget of `/conversations.html`. */
export function readConversationsState(page: Page): Promise<DemoState> {
  return page.evaluate(() => (window as ConversationsWindow).agentChatDemo!.chat.client.getState());
}

/** Waits until the widget of `/conversations.html` has bootstrapped (after a `goto` or a `reload`). */
export async function waitForConversations(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as ConversationsWindow).agentChatDemo?.chat.client.getState().bootstrap != null,
  );
}
