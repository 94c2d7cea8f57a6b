import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDemoStaticHandler } from '../demo/serve-demo.ts';
import type { DemoServer } from '../scripts/demo-server.ts';
import { createDemoServer } from '../scripts/demo-server.ts';
import { createEngineFromEnv } from '../scripts/engine-from-env.ts';
import type { AgUiTestAgent } from '../test/support/ag-ui-agent.ts';
import { slowAgentWords, startAgUiTestAgent } from '../test/support/ag-ui-agent.ts';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, readState } from './support/chat.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SLOW_WORDS = 150;

let agent: AgUiTestAgent;
let demo: DemoServer;

// A real AG-UI agent (built on @ag-ui/encoder) behind a demo server of its own, as `npm start` runs it with AGUI_AGENT_URL.
test.beforeAll(async () => {
  agent = await startAgUiTestAgent({ delayMs: 30, slowWords: SLOW_WORDS });
  demo = await createDemoServer({
    host: '127.0.0.1',
    port: 0,
    engine: createEngineFromEnv({ AGUI_AGENT_URL: agent.url }),
    staticHandler: createDemoStaticHandler({ rootDir }),
    onError: () => undefined,
  });
});

test.afterAll(async () => {
  await demo.close();
  await agent.close();
});

/** The `w<n>` words of the `slow` scenario in the order they are shown. */
function readWords(text: string): string[] {
  return text.match(/w\d+/g) ?? [];
}

test('the widget renders an AG-UI agent’s text, reasoning, own tool call, state change and failure', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page, `${demo.url}/`);
  const widget = chat(page);

  await widget.send('reasoning');
  await widget.waitForIdle();
  await expect(widget.reasoning).toHaveCount(1);
  await expect(widget.reasoning.first()).toContainText('Thinking it over.');
  await expect(widget.assistantMessages.last()).toContainText('Thought through.');

  await widget.send('agent tool');
  await widget.waitForIdle();
  await expect(widget.toolCards).toHaveCount(1);
  await expect(widget.toolCards.first()).toContainText('weather.lookup');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  await expect(widget.assistantMessages.last()).toContainText('It is clear in Oslo.');

  await widget.send('state');
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last()).toContainText('State updated.');
  const { run } = await readState(page);
  const log = await page.request.get(`${demo.url}/api/agent/v1/runs/${run?.runId}/events?after=0`);
  const types = (await log.text()).match(/"type":"STATE_[A-Z]+"/g);
  expect(types).toEqual(['"type":"STATE_SNAPSHOT"', '"type":"STATE_DELTA"']);

  await widget.send('error');
  await widget.waitForIdle();
  await expect(widget.root.locator('[part~="run-error"]')).toContainText('The agent reported an error.');
  await expect(widget.root).not.toContainText('secret-token-123');

  await expect(widget.userMessages).toHaveText(['You reasoning', 'You agent tool', 'You state', 'You error']);
});

test('a tool the AG-UI agent leaves to its client runs governed: read-only at once, a deletion after approval', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page, `${demo.url}/`);
  const widget = chat(page);

  await widget.send('client tool orders.lookup {"orderId":"A-1001"}');
  await widget.waitForIdle();
  // The one-line card names the tool by its title, never its internal name.
  await expect(widget.toolCards.first()).toContainText('Look up an order');
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  await expect(widget.assistantMessages.last()).toContainText('Result of client-call-');
  await expect(widget.assistantMessages.last()).toContainText('A-1001');

  await widget.send('client tool drafts.delete {"draftId":"draft-42"}');
  const card = widget.approvalCards.last();
  await expect(card).toHaveAttribute('data-state', 'open');
  await expect(card.locator('.approval-arg dd')).toHaveText(['draft-42']);
  await card.locator('[part~="allow-button"]').click();
  await widget.waitForIdle();
  // Once answered, the approval collapses into the call's one-line card with its outcome.
  await expect(widget.approvalCards).toHaveCount(0);
  await expect(widget.toolCards.last()).toHaveAttribute('data-status', 'completed');
  await expect(widget.assistantMessages.last()).toContainText('{"draftId":"draft-42","deleted":true}');
});

test('a reload in the middle of an AG-UI agent’s answer resumes the same run with nothing lost or repeated', async ({
  page,
  pageErrors: _errors,
}) => {
  await openDemo(page, `${demo.url}/`);
  const widget = chat(page);
  await widget.send('slow');
  await expect
    .poll(async () => readWords(await widget.assistantMessages.last().innerText()).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(15);
  const { run } = await readState(page);
  expect(run?.status).toBe('running');

  await page.reload();
  await openDemo(page, page.url());
  await expect.poll(async () => (await readState(page)).run?.runId).toBe(run?.runId);
  await widget.waitForIdle();
  await expect(widget.assistantMessages).toHaveCount(1);
  expect(readWords(await widget.assistantMessages.last().innerText())).toEqual(
    slowAgentWords(SLOW_WORDS).map((word) => word.trim()),
  );
  const state = await readState(page);
  expect(state.messages.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual([
    slowAgentWords(SLOW_WORDS).join(''),
  ]);
  expect(state.run).toEqual(expect.objectContaining({ runId: run?.runId, status: 'completed' }));
  // One run of ours, and one request to the agent: the reload re-read our log, it did not ask again.
  expect(agent.inputs.filter((input) => input.messages.at(-1)?.content === 'slow')).toHaveLength(1);
});
