import { test, expect } from './support/fixtures.ts';
import { chat, type ChatDriver } from './support/chat.ts';
import { readConversationsState, waitForConversations } from './support/conversations.ts';
import type { RunEvent, TranscriptRow } from './support/transcript-rows.ts';
import { describeRows, projectTranscript, readRunEvents, readTranscriptRows } from './support/transcript-rows.ts';

// The demo's offline model speaks the shapes real models stream (`/shape <name>`, README
// "Scripted scenarios"), so the demo meets them too: one conversation of every shape, whose
// transcript reads in event order live and again after a reload.

const CHAT = '#conversations-chat';

/** Each shape and what the person does while it runs. */
const SHAPES: { name: string; act?: (widget: ChatDriver) => Promise<void> }[] = [
  { name: 'silent-call' },
  { name: 'parallel' },
  { name: 'silent-rounds' },
  {
    name: 'approval-first',
    act: async (widget) => {
      await expect(widget.root.locator('[part~="approval-card"][data-state="open"]')).toBeVisible();
      await widget.root.locator('[part~="allow-button"]').click();
    },
  },
  { name: 'reasoning-call' },
  { name: 'tool-error' },
  { name: 'cut-args' },
  {
    name: 'cancel-tool',
    act: async (widget) => {
      await expect(widget.root.locator('[part~="tool-card"][data-status="running"]')).toBeVisible();
      await widget.stopButton.click();
    },
  },
];

test('every /shape of the scripted model reads in event order, live and after a reload', async ({
  page,
  pageErrors: _errors,
}) => {
  test.setTimeout(120_000);
  await page.goto('/conversations.html');
  await waitForConversations(page);
  const widget = chat(page, CHAT);
  const runs: RunEvent[][] = [];
  // The widget renders the answers' Markdown: compare their words, not the marks around them.
  const plain = (rows: TranscriptRow[] | null) =>
    rows?.map((row) => (row.kind === 'assistant' ? { ...row, text: row.text.replace(/[*`]/g, '') } : row));
  const expectRows = async (label: string): Promise<void> => {
    const expected = plain(projectTranscript(runs));
    await expect(async () => expect(plain(await readTranscriptRows(page, CHAT)), label).toEqual(expected)).toPass({
      timeout: 10_000,
    });
  };
  for (const shape of SHAPES) {
    await widget.send(`/shape ${shape.name}`);
    await shape.act?.(widget);
    await widget.waitForIdle();
    const state = await readConversationsState(page);
    runs.push(
      await readRunEvents(
        page.request,
        new URL(page.url()).origin,
        state.run!.runId,
        state.bootstrap!.identity.identityId,
      ),
    );
    // No shape speaks before its first call: a tool row comes before any answer of the turn.
    const rows = projectTranscript([runs.at(-1)!]);
    expect(
      rows.findIndex((row) => row.kind === 'tool'),
      describeRows(rows),
    ).toBeLessThan(rows.findIndex((row) => row.kind === 'assistant') >>> 0);
    await expectRows(`${shape.name}: live = event order`);
  }
  await page.reload();
  await waitForConversations(page);
  await expect(widget.userMessages).toHaveCount(SHAPES.length);
  await expectRows('after a reload = live');
});
