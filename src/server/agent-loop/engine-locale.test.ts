import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../core/protocol.ts';
import { pickLocalized } from '../locale/pick-localized.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { freshKey } from '../test-support/start-test-server.ts';
import { dataOf } from './test-support/run-engine-harness.ts';
import type { EngineServer } from './test-support/start-engine-server.ts';
import { startEngineServer } from './test-support/start-engine-server.ts';
import type { RunEngineOptions } from './engine-options.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(engine: RunEngineOptions = {}): Promise<EngineServer> {
  const server = await startEngineServer({ engine });
  open.push(server);
  return server;
}

/** Starts `text` as alice with `Accept-Language: locale` and reads events until the approval question (or the end). */
async function runIn(server: EngineServer, text: string, locale: string): Promise<EventEnvelope[]> {
  const response = await server.request('/runs', {
    user: 'alice',
    body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text }] } },
    headers: { 'idempotency-key': freshKey(), 'accept-language': locale },
  });
  expect(response.status).toBe(201);
  const { runId } = (await response.json()) as { runId: string };
  const followed = await server.follow(runId);
  return followed.until((events) =>
    events.some((event) => event.type === 'INTERRUPT_REQUESTED' || event.type === 'RUN_FINISHED'),
  );
}

function titlesOf(events: readonly EventEnvelope[]): unknown[] {
  return dataOf(events, 'TOOL_CALL_START').map((data) => data.title);
}

function questionOf(events: readonly EventEnvelope[]): unknown {
  return dataOf(events, 'INTERRUPT_REQUESTED')[0]?.interrupt.message;
}

describe('server text follows the locale of the request that created the run', () => {
  it('writes the tool titles and the approval question in Chinese for zh-CN', async () => {
    const server = await serve();
    const events = await runIn(server, '/approval', 'zh-CN,zh;q=0.9,en;q=0.8');
    expect(titlesOf(events)).toEqual(['列出草稿', '删除草稿']);
    // drafts.delete words its own question, in the run's locale, and its consequence (`consequences`).
    expect(questionOf(events)).toBe('删除草稿“Quarterly report (unfinished)”？');
    // It is declared destructive: its approval says so for the widget to mark Allow.
    expect(dataOf(events, 'INTERRUPT_REQUESTED')[0]?.interrupt.metadata).toEqual({
      destructive: true,
      summary: '删除草稿“Quarterly report (unfinished)”？',
      consequence: '此操作无法撤销。',
    });
  });

  it('writes English for an English or unknown locale, and the title of the language for zh-TW', async () => {
    const server = await serve();
    const english = await runIn(server, '/approval', 'en-GB');
    expect(titlesOf(english)).toEqual(['List drafts', 'Delete a draft']);
    expect(questionOf(english)).toBe('Delete the draft "Quarterly report (unfinished)"?');
    expect(titlesOf(await runIn(server, '/tool', 'fr'))).toEqual(['Look up an order']);
    expect(titlesOf(await runIn(server, '/tool', 'zh-TW'))).toEqual(['查询订单']);
  });

  it("uses the product's texts for its own locales", async () => {
    // Without its own summary, drafts.delete asks the engine's question.
    const tools = createDemoTools().map(({ approval: _approval, ...tool }) => tool);
    const server = await serve({ tools, texts: { fr: { approvalQuestion: 'Autoriser « {tool} » ({name}) ?' } } });
    expect(questionOf(await runIn(server, '/approval', 'fr'))).toBe('Autoriser « Delete a draft » (drafts.delete) ?');
  });
});

describe('pickLocalized', () => {
  it('matches the tag case-insensitively, then the language, else nothing', () => {
    const texts = { 'zh-CN': '查询订单', de: 'Bestellung' };
    expect(pickLocalized(texts, 'zh-cn')).toBe('查询订单');
    expect(pickLocalized(texts, 'zh')).toBe('查询订单');
    expect(pickLocalized(texts, 'de-AT')).toBe('Bestellung');
    expect(pickLocalized(texts, 'fr')).toBeUndefined();
    expect(pickLocalized(texts, undefined)).toBeUndefined();
  });
});
