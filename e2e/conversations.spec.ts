import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat } from './support/chat.ts';
import { deleteRowAfterCancel, renameRow } from './support/conversations.ts';

interface ConversationsDemoWindow extends Window {
  agentChatDemo?: {
    chat: { client: { getState(): { bootstrap: unknown; sessionId: string | null; run: { lastSeq: number } | null } } };
  };
}

async function openConversationsDemo(page: Page): Promise<void> {
  await page.goto('/conversations.html');
  await page.waitForFunction(
    () => (window as ConversationsDemoWindow).agentChatDemo?.chat.client.getState().bootstrap != null,
  );
}

function lastSeqOf(page: Page): Promise<number> {
  return page.evaluate(
    () => (window as ConversationsDemoWindow).agentChatDemo?.chat.client.getState().run?.lastSeq ?? 0,
  );
}

test('conversations: switch back to a run that streamed elsewhere, rename, delete with confirmation, reload', async ({
  page,
  pageErrors: _errors,
}) => {
  await openConversationsDemo(page);
  const widget = chat(page, '#conversations-chat');
  const panel = page.locator('agent-chat-conversations');
  const rows = panel.locator('li.row');
  const slowRow = rows.filter({ hasText: '/slow' });

  await widget.send('/slow');
  await expect(widget.stopButton).toBeVisible();
  await expect(slowRow).toContainText('Answering…');
  await expect(slowRow.locator('.delete-button')).toBeDisabled();

  // A second conversation while the first one's answer goes on on the server.
  await panel.getByRole('button', { name: 'New conversation' }).click();
  await expect(widget.userMessages).toHaveCount(0);
  await widget.send('/echo in the second');
  await expect(widget.assistantMessages.last()).toContainText('in the second');
  await widget.waitForIdle();
  await expect(rows).toHaveCount(2);

  // Back to the first: its history, and its run streaming again from where it is now.
  await slowRow.locator('.open').click();
  await expect(widget.userMessages.first()).toContainText('/slow');
  await expect(widget.stopButton).toBeVisible();
  const seqAtSwitch = await lastSeqOf(page);
  await page.waitForFunction(
    (seq) => ((window as ConversationsDemoWindow).agentChatDemo?.chat.client.getState().run?.lastSeq ?? 0) > seq,
    seqAtSwitch,
  );
  await expect(slowRow.locator('.open')).toHaveAttribute('aria-current', 'true');

  // Rename the second one inline, by keyboard, then delete it: nothing goes before the confirmation.
  await renameRow(page, panel, '/echo in the second', 'Second chat');
  await deleteRowAfterCancel(panel, 'Second chat');

  // A reload shows the same conversation (persisted), its run still streaming, and the list without the deleted one.
  await page.reload();
  await openConversationsDemo(page);
  await expect(widget.userMessages.first()).toContainText('/slow');
  await expect(widget.stopButton).toBeVisible();
  await expect(rows).toHaveCount(1);
  await widget.stopButton.click();
  await widget.waitForIdle();

  // Once ended it can go too; the widget is then an empty new conversation, also after a reload.
  await rows.first().locator('.delete-button').click();
  await panel.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(rows).toHaveCount(0);
  await expect(widget.userMessages).toHaveCount(0);
  await page.reload();
  await openConversationsDemo(page);
  await expect(panel.getByText('No conversations yet.')).toBeVisible();
  await expect(widget.userMessages).toHaveCount(0);
});
