import type { Locator, Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState, waitForDemo, type ChatDriver, type DemoWindow } from './support/chat.ts';
import { deleteRowAfterCancel, renameRow } from './support/conversations.ts';
import { tabTo } from './support/keyboard.ts';

/** The demo page's widgets, with the `agent-chat-session` details the inline one fired since the page loaded. */
interface SheetDemoWindow extends DemoWindow {
  sessionEvents?: (string | null)[];
}

/** The inline widget's "Conversations" button, its sheet, and the sheet's rows. */
function sheetOf(widget: ChatDriver): { button: Locator; sheet: Locator; dialog: Locator; rows: Locator } {
  const sheet = widget.root.locator('agent-chat-conversations');
  return {
    button: widget.root.locator('[part~="conversations-button"]'),
    sheet,
    dialog: widget.root.getByRole('dialog', { name: 'Conversations' }),
    rows: sheet.locator('li.row'),
  };
}

/** Opens the demo and records the inline widget's session events (through the handle's `on`). */
async function openSheetDemo(page: Page): Promise<void> {
  await openDemo(page);
  await page.evaluate(() => {
    const demoWindow = window as SheetDemoWindow;
    demoWindow.sessionEvents = [];
    const inline = demoWindow.agentChatDemo!.inline as unknown as {
      on(name: string, listener: (detail: { sessionId: string | null }) => void): () => void;
    };
    inline.on('agent-chat-session', (detail) => demoWindow.sessionEvents!.push(detail.sessionId));
  });
}

function sessionEventsOf(page: Page): Promise<(string | null)[]> {
  return page.evaluate(() => (window as SheetDemoWindow).sessionEvents ?? []);
}

test('the header opens the conversations sheet: switch back to a run that streamed meanwhile, rename, delete, reload', async ({
  page,
  pageErrors: _errors,
}) => {
  await openSheetDemo(page);
  const widget = chat(page);
  const { button, sheet, dialog, rows } = sheetOf(widget);
  const slowRow = rows.filter({ hasText: '/slow' });

  await widget.send('/slow');
  await expect(widget.stopButton).toBeVisible();
  await button.click();
  await expect(dialog).toBeVisible();
  await expect(slowRow).toContainText('Answering…');
  await expect(slowRow.locator('.open')).toHaveAttribute('aria-current', 'true');
  await expect(slowRow.locator('.delete-button')).toBeDisabled();

  // A new conversation from the sheet closes it and leaves the first one's answer going on the server.
  await sheet.getByRole('button', { name: 'New conversation' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(widget.userMessages).toHaveCount(0);
  await widget.send('/echo in the second');
  await expect(widget.assistantMessages.last()).toContainText('in the second');
  await widget.waitForIdle();
  const secondSessionId = (await readState(page)).sessionId;

  // Back to the first: its history, and its run streaming again.
  await button.click();
  await expect(rows).toHaveCount(2);
  await slowRow.locator('.open').click();
  await expect(sheet).toHaveCount(0);
  await expect(widget.userMessages.first()).toContainText('/slow');
  await expect(widget.stopButton).toBeVisible();
  const seqAtSwitch = (await readState(page)).run?.lastSeq ?? 0;
  await page.waitForFunction(
    (seq) => ((window as DemoWindow).agentChatDemo?.inline.client.getState().run?.lastSeq ?? 0) > seq,
    seqAtSwitch,
  );
  // The host heard every change of conversation: the first send, the new one, the second send, the switch back.
  const slowSessionId = (await readState(page)).sessionId;
  expect(slowSessionId).not.toBe(secondSessionId);
  expect(await sessionEventsOf(page)).toEqual([slowSessionId, null, secondSessionId, slowSessionId]);

  // Rename the second one inline, by keyboard, then delete it after a confirmation; the sheet stays open.
  await button.click();
  await renameRow(page, sheet, '/echo in the second', 'Second chat');
  await deleteRowAfterCancel(sheet, 'Second chat');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(button).toBeFocused();

  // A reload (persist: true) shows the same conversation, its run still streaming, and the list without the deleted one.
  await page.reload();
  await waitForDemo(page);
  await expect(widget.userMessages.first()).toContainText('/slow');
  await expect(widget.stopButton).toBeVisible();
  await button.click();
  await expect(rows).toHaveCount(1);
  await expect(slowRow.locator('.open')).toHaveAttribute('aria-current', 'true');
  await sheet.getByRole('button', { name: 'Close conversations' }).click();
  await expect(sheet).toHaveCount(0);
  await widget.stopButton.click();
  await widget.waitForIdle();
});

test('the sheet by keyboard alone: Tab to the header button, Enter, Tab inside, Escape gives focus back', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const widget = chat(page);
  const { button, sheet, dialog } = sheetOf(widget);
  await widget.send('/echo first');
  await widget.waitForIdle();

  // From the composer back up to the header's button, by Shift+Tab alone.
  await widget.input.focus();
  await tabTo(page, 'conversations-button', 'Shift+Tab', 10);
  await expect(button).toBeFocused();
  await expect(button).toHaveAccessibleName('Conversations');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  const { rows } = sheetOf(widget);
  const current = sheet.locator('li.row.current .open');
  await expect(sheet.getByRole('button', { name: 'New conversation' })).toBeFocused();
  await expect(rows).toHaveCount(1);

  // Inside the sheet Tab walks its controls; what the sheet covers is inert (no focus, no clicks).
  await page.keyboard.press('Tab');
  await expect(sheet.getByRole('button', { name: 'Close conversations' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(current).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sheet.locator('li.row.current .rename-button')).toBeFocused();
  expect(
    await widget.root.evaluate((element) => element.shadowRoot!.querySelector('.content')!.matches('[inert]')),
  ).toBe(true);
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(button).toBeFocused();

  // Enter on a row switches (here: to the conversation on screen) and closes the sheet too.
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(1);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(current).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(sheet).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(widget.userMessages).toHaveCount(1);
  await expect(widget.userMessages.first()).toContainText('/echo first');
});

test('conversations: false hides the button although the panel file is at hand; the property does the same', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  await page.evaluate(() => {
    const target = document.createElement('div');
    target.id = 'no-sheet-chat';
    document.body.append(target);
    (window as unknown as { AgentChat: { mount(target: string, options: object): unknown } }).AgentChat.mount(
      '#no-sheet-chat',
      { endpoint: '/api/agent', conversations: false },
    );
  });
  const withoutSheet = chat(page, '#no-sheet-chat');
  await expect(withoutSheet.root.locator('[part~="new-conversation-button"]')).toHaveCount(1);
  await expect(withoutSheet.root.locator('[part~="conversations-button"]')).toHaveCount(0);

  const inline = chat(page);
  const { button } = sheetOf(inline);
  await expect(button).toHaveCount(1);
  await inline.root.evaluate((element) => Object.assign(element, { conversations: false }));
  await expect(button).toHaveCount(0);
  await inline.root.evaluate((element) => Object.assign(element, { conversations: true }));
  await expect(button).toHaveCount(1);
});

test('in the launcher the sheet opens inside the panel, and Escape closes the sheet before the launcher', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page);
  const launcher = page.locator('#launcher');
  await launcher.locator('[part~="launcher-button"]').click();
  const widget = chat(page, '#launcher');
  const { button, sheet, dialog } = sheetOf(widget);
  await button.click();
  await expect(dialog).toBeVisible();
  await expect(sheet.getByRole('button', { name: 'New conversation' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(widget.input).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(widget.input).toBeHidden();
});

test('at 375 px wide the sheet covers the widget and nothing in it overflows', async ({
  page,
  pageErrors: _errors,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await openDemo(page);
  const widget = chat(page);
  const { button, sheet, rows } = sheetOf(widget);
  await widget.send('/echo a conversation with a title long enough to be cut at the end of its row');
  await widget.waitForIdle();
  await button.click();
  await expect(rows).toHaveCount(1);
  const widgetBox = (await widget.root.boundingBox())!;
  const sheetBox = (await sheet.boundingBox())!;
  expect([sheetBox.x, sheetBox.y, sheetBox.width, sheetBox.height]).toEqual([
    widgetBox.x,
    widgetBox.y,
    widgetBox.width,
    widgetBox.height,
  ]);
  expect(widgetBox.width).toBeLessThanOrEqual(375);
  const overflow = await sheet.evaluate((element) => {
    const section = element.shadowRoot!.querySelector('.sheet')!;
    return section.scrollWidth - section.clientWidth;
  });
  expect(overflow).toBe(0);
  for (const control of [
    rows.first().locator('.open'),
    rows.first().locator('.rename-button'),
    rows.first().locator('.delete-button'),
  ]) {
    const box = (await control.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(widgetBox.x + widgetBox.width);
    expect(box.height).toBeGreaterThanOrEqual(44);
  }
});
