import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { FakeReply } from '../src/server/models/test-support/fake-openai-server.ts';
import { startFakeOpenAiServer } from '../src/server/models/test-support/fake-openai-server.ts';
import { startRedisServer } from '../test/support/redis-server.ts';
import { findFreePort, spawnServer } from '../test/support/spawn-server.ts';
import type { SpawnedServer } from '../test/support/spawn-server.ts';
import { test, expect } from './support/fixtures.ts';
import { chat, type ChatDriver } from './support/chat.ts';
import { readConversationsState, waitForConversations } from './support/conversations.ts';
import { answerReply, cutInArgumentsReply, toolCallsReply } from './support/fake-chat-completions.ts';
import type { ScriptedCall } from './support/fake-chat-completions.ts';
import type { RunEvent, TranscriptRow } from './support/transcript-rows.ts';
import { describeRows, projectTranscript, readRunEvents, readTranscriptRows } from './support/transcript-rows.ts';

// Issue 48: a transcript reads in the order its items started, live, after a reload and after a
// switch to another conversation and back, whatever the model does first (text, a tool call, two,
// an approval, reasoning, a failing call, a broken stream, a stop). A fake Chat Completions
// provider scripts each shape on the wire; the real server runs it through the environment's
// model (scripts/start.ts) and through `fromAiSdk` over @ai-sdk/openai's chat model, on each store.

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHAT = '#conversations-chat';

// ---------------------------------------------------------------------------------------------
// The projection from events to rows, on its own.

const ev = (seq: number, type: string, data: unknown): RunEvent => ({ seq, type, data });
const started = (seq: number, text: string): RunEvent =>
  ev(seq, 'RUN_STARTED', { input: { messageId: 'msg_u', content: [{ type: 'text', text }] } });

test.describe('projectTranscript', () => {
  test('orders items by the seq of their start event, whatever the input order, and applies later events', () => {
    const events = [
      ev(9, 'TEXT_MESSAGE_END', { messageId: 'msg_a', finishReason: 'stop' }),
      ev(7, 'TEXT_MESSAGE_START', { messageId: 'msg_a', role: 'assistant' }),
      ev(8, 'TEXT_MESSAGE_CONTENT', { messageId: 'msg_a', delta: 'Done. ' }),
      started(1, ' look it up '),
      ev(2, 'TOOL_CALL_START', { toolCallId: 'tc_1', toolCallName: 'orders.lookup', title: 'Look up an order' }),
      ev(3, 'TOOL_CALL_START', { toolCallId: 'tc_2', toolCallName: 'drafts.list' }),
      ev(4, 'TOOL_CALL_END', { toolCallId: 'tc_1', args: {}, argsDigest: 'd' }),
      ev(5, 'TOOL_CALL_RESULT', { toolCallId: 'tc_1', messageId: 'm', content: '', status: 'completed' }),
      ev(6, 'TOOL_CALL_END', { toolCallId: 'tc_2', args: {}, argsDigest: 'd' }),
    ];
    expect(projectTranscript([events])).toEqual([
      { kind: 'user', text: 'look it up' },
      { kind: 'tool', name: 'Look up an order', status: 'completed' },
      { kind: 'tool', name: 'drafts.list', status: 'pending' },
      { kind: 'assistant', text: 'Done.', status: 'complete' },
    ]);
  });

  test('drops discarded messages, folds approvals into their call, keeps standalone interrupts and errors', () => {
    const events = [
      started(1, 'q'),
      ev(2, 'REASONING_MESSAGE_START', { messageId: 'msg_r' }),
      ev(3, 'TEXT_MESSAGE_START', { messageId: 'msg_x', role: 'assistant' }),
      ev(4, 'MESSAGE_DISCARDED', { messageId: 'msg_x', reason: 'attempt_retry' }),
      ev(5, 'TOOL_CALL_START', { toolCallId: 'tc_1', toolCallName: 'drafts.delete' }),
      ev(6, 'INTERRUPT_REQUESTED', { interrupt: { id: 'int_1', reason: 'tool_call', toolCallId: 'tc_1' } }),
      ev(7, 'INTERRUPT_RESOLVED', { interruptId: 'int_1', status: 'resolved', decision: 'allow', resolvedBy: 'user' }),
      ev(8, 'INTERRUPT_REQUESTED', { interrupt: { id: 'int_2', reason: 'input_required' } }),
      ev(9, 'INTERRUPT_RESOLVED', { interruptId: 'int_2', status: 'cancelled', resolvedBy: 'cancel' }),
      ev(10, 'TEXT_MESSAGE_START', { messageId: 'msg_b', role: 'assistant' }),
      ev(11, 'TEXT_MESSAGE_END', { messageId: 'msg_b', finishReason: 'cancelled' }),
      ev(12, 'RUN_ERROR', { code: 'MODEL_ERROR', message: 'x', retryable: true }),
    ];
    expect(projectTranscript([events, [started(1, 'next')]])).toEqual([
      { kind: 'user', text: 'q' },
      { kind: 'reasoning' },
      { kind: 'tool', name: 'drafts.delete', status: 'running' },
      { kind: 'approval', state: 'cancelled' },
      { kind: 'assistant', text: '', status: 'cancelled' },
      { kind: 'error' },
      { kind: 'user', text: 'next' },
    ]);
  });

  test('reads an input appended to the run as a user row where it started, with its text', () => {
    const events = [
      started(1, 'first'),
      ev(2, 'TOOL_CALL_START', { toolCallId: 'tc_1', toolCallName: 'report.generate' }),
      ev(3, 'TEXT_MESSAGE_START', { messageId: 'msg_in', role: 'user', inputId: 'in_1' }),
      ev(4, 'TOOL_CALL_PROGRESS', { toolCallId: 'tc_1', fraction: 0.5 }),
      ev(5, 'TEXT_MESSAGE_CONTENT', { messageId: 'msg_in', delta: 'also this' }),
      ev(6, 'TEXT_MESSAGE_END', { messageId: 'msg_in' }),
    ];
    expect(projectTranscript([events])).toEqual([
      { kind: 'user', text: 'first' },
      { kind: 'tool', name: 'report.generate', status: 'running' },
      { kind: 'user', text: 'also this' },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The shapes.

/** One conversation turn the fake model scripts, and what it must read as. */
interface Shape {
  name: string;
  /** The user's message; it also names the conversation in the sheet. */
  prompt: string;
  /** The model's replies for this turn, in request order. */
  replies: FakeReply[];
  /** How many model requests the turn makes. */
  requests: number;
  /** The provider call ids whose results must reach the model in a later request of the turn. */
  answered: string[];
  /** The row kinds the run's events must project to (with reasoning only where the model path streams it). */
  kinds(options: { reasoning: boolean }): TranscriptRow['kind'][];
  /** Event types the run's log must hold (so the turn went the way the shape means: a retry, an approval…). */
  logs?: string[];
  /** What the user does while the turn runs (answer an approval, press Stop). */
  act?(widget: ChatDriver): Promise<void>;
}

const lookup = (id: string, orderId: string): ScriptedCall => ({ id, name: 'orders_lookup', args: { orderId } });
const listDrafts = (id: string): ScriptedCall => ({ id, name: 'drafts_list', args: {} });
const deleteDraft = (id: string, draftId: string): ScriptedCall => ({ id, name: 'drafts_delete', args: { draftId } });

async function answerApproval(widget: ChatDriver, button: 'allow-button' | 'deny-button'): Promise<void> {
  await expect(widget.root.locator('[part~="approval-card"][data-state="open"]')).toBeVisible();
  await widget.root.locator(`[part~="${button}"]`).click();
}

const SHAPES: Shape[] = [
  {
    name: '1 text → tool → text',
    prompt: 'shape 1: text, then a call, then text',
    replies: [
      toolCallsReply([lookup('call_1a', 'A-1001')], { text: 'Let me look that up.' }),
      answerReply('Order A-1001 ships tomorrow.'),
    ],
    requests: 2,
    answered: ['call_1a'],
    kinds: () => ['user', 'assistant', 'tool', 'assistant'],
  },
  {
    name: '2 tool first, then the answer',
    prompt: 'shape 2: a call before any text',
    replies: [toolCallsReply([lookup('call_2a', 'A-1002')]), answerReply('Order A-1002 is on its way.')],
    requests: 2,
    answered: ['call_2a'],
    kinds: () => ['user', 'tool', 'assistant'],
  },
  {
    name: '3 two calls in one response',
    prompt: 'shape 3: two calls in one response',
    replies: [
      toolCallsReply([lookup('call_3a', 'A-1003'), listDrafts('call_3b')]),
      answerReply('Here are the order and your drafts.'),
    ],
    requests: 2,
    answered: ['call_3a', 'call_3b'],
    kinds: () => ['user', 'tool', 'tool', 'assistant'],
  },
  {
    name: '4 two rounds of calls without text',
    prompt: 'shape 4: two rounds of calls, no text',
    replies: [
      toolCallsReply([lookup('call_4a', 'A-1004')]),
      toolCallsReply([listDrafts('call_4b')]),
      answerReply('Both rounds are done.'),
    ],
    requests: 3,
    answered: ['call_4a', 'call_4b'],
    kinds: () => ['user', 'tool', 'tool', 'assistant'],
  },
  {
    name: '5a approval first, allowed',
    prompt: 'shape 5a: an approval first, allowed',
    replies: [toolCallsReply([deleteDraft('call_5a', 'draft-42')]), answerReply('The draft is deleted.')],
    requests: 2,
    answered: ['call_5a'],
    kinds: () => ['user', 'tool', 'assistant'],
    logs: ['INTERRUPT_REQUESTED', 'INTERRUPT_RESOLVED'],
    act: (widget) => answerApproval(widget, 'allow-button'),
  },
  {
    name: '5b approval first, denied',
    prompt: 'shape 5b: an approval first, denied',
    replies: [toolCallsReply([deleteDraft('call_5b', 'draft-43')]), answerReply('I left the draft alone.')],
    requests: 2,
    answered: ['call_5b'],
    kinds: () => ['user', 'tool', 'assistant'],
    logs: ['INTERRUPT_REQUESTED', 'INTERRUPT_RESOLVED'],
    act: (widget) => answerApproval(widget, 'deny-button'),
  },
  {
    name: '6 reasoning, then a call',
    prompt: 'shape 6: reasoning, then a call',
    replies: [
      toolCallsReply([lookup('call_6a', 'A-1006')], { reasoning: 'The user asks about an order; look it up.' }),
      answerReply('Order A-1006 was delivered.'),
    ],
    requests: 2,
    answered: ['call_6a'],
    kinds: ({ reasoning }) => [
      ...(reasoning ? (['user', 'reasoning'] as const) : (['user'] as const)),
      'tool',
      'assistant',
    ],
  },
  {
    name: '7 a tool error, then the answer',
    prompt: 'shape 7: a failing call, then the answer',
    // Not an order id (`^A-[0-9]+$`): the call fails validation and the model hears why.
    replies: [toolCallsReply([lookup('call_7a', 'not-an-order')]), answerReply('That is not an order id.')],
    requests: 2,
    answered: ['call_7a'],
    kinds: () => ['user', 'tool', 'assistant'],
  },
  {
    name: '8 a cut inside a call’s arguments',
    prompt: 'shape 8: the stream breaks inside the arguments',
    replies: [
      cutInArgumentsReply(lookup('call_8x', 'A-1008'), { text: 'Checking.' }),
      toolCallsReply([lookup('call_8a', 'A-1008')]),
      answerReply('Order A-1008 is packed.'),
    ],
    requests: 3,
    answered: ['call_8a'],
    kinds: () => ['user', 'tool', 'assistant'],
    // The first attempt's text is retracted and the retry announced.
    logs: ['MESSAGE_DISCARDED', 'NOTICE'],
  },
  {
    name: '9 Stop during a slow tool',
    prompt: 'shape 9: stop while a slow tool runs',
    replies: [toolCallsReply([{ id: 'call_9a', name: 'report_generate', args: { topic: 'returns', sections: 10 } }])],
    requests: 1,
    answered: [],
    kinds: () => ['user', 'tool'],
    logs: ['TOOL_CALL_PROGRESS', 'RUN_FINISHED'],
    act: async (widget) => {
      await expect(widget.root.locator('[part~="tool-card"][data-status="running"]')).toBeVisible();
      await widget.stopButton.click();
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Stores and model paths.

interface Store {
  env: Record<string, string>;
  stop(): Promise<void>;
}

const STORES: [string, () => Promise<Store>][] = [
  ['memory', async () => ({ env: { AGENT_CHAT_DB: ':memory:' }, stop: async () => undefined })],
  [
    'SQLite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'agent-chat-invariance-'));
      return {
        env: { AGENT_CHAT_DB: join(dir, 'agent-chat.sqlite') },
        stop: () => rm(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'Redis',
    async () => {
      const redis = await startRedisServer();
      return { env: { REDIS_URL: redis.url }, stop: () => redis.stop() };
    },
  ],
];

interface ModelPath {
  name: string;
  entry: string;
  /** Whether the path streams `reasoning_content` as reasoning (@ai-sdk/openai's chat model drops it). */
  reasoning: boolean;
}

const MODEL_PATHS: ModelPath[] = [
  { name: 'the environment’s model (scripts/start.ts)', entry: 'scripts/start.ts', reasoning: true },
  { name: 'fromAiSdk over @ai-sdk/openai chat', entry: 'e2e/support/ai-sdk-chat-server.ts', reasoning: false },
];

// ---------------------------------------------------------------------------------------------
// Reading the page.

async function openConversations(page: Page, url: string): Promise<void> {
  if (url !== page.url()) await page.goto(url);
  await waitForConversations(page);
}

/**
 * Waits until the widget shows `expected` (up to 5 s: the turn has ended or the history has
 * loaded by then, so only rendering is left), as a soft check so every shape is reported, and
 * returns what it showed last, for the report.
 */
async function expectRows(page: Page, expected: TranscriptRow[], label: string): Promise<TranscriptRow[] | null> {
  let shown: TranscriptRow[] | null = null;
  await expect
    .soft(async () => {
      shown = await readTranscriptRows(page, CHAT);
      expect(shown).toEqual(expected);
    }, label)
    .toPass({ timeout: 5_000, intervals: [50, 100, 200] });
  return shown;
}

/** The tool call ids of the `tool` messages a model request carried. */
function answeredCallIds(body: Record<string, unknown>): string[] {
  const messages = (body['messages'] ?? []) as { role?: string; tool_call_id?: string }[];
  return messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id ?? '');
}

// ---------------------------------------------------------------------------------------------

for (const path of MODEL_PATHS) {
  for (const [storeName, openStore] of STORES) {
    test(`transcript order: live = event order = after reload = after a switch, every shape, ${path.name}, ${storeName}`, async ({
      page,
      pageErrors: _errors,
    }, testInfo) => {
      test.setTimeout(240_000);
      const fake = await startFakeOpenAiServer();
      // One queue for the whole test: the turns run one after the other, each taking its replies.
      fake.reply(...SHAPES.flatMap((shape) => shape.replies));
      const store = await openStore();
      let server: SpawnedServer | undefined;
      const table: string[] = [];
      try {
        server = await spawnServer({
          entry: join(rootDir, path.entry),
          cwd: rootDir,
          env: {
            HOST: '127.0.0.1',
            PORT: String(await findFreePort()),
            OPENAI_BASE_URL: fake.baseUrl,
            OPENAI_API_KEY: 'x',
            AGENT_MODEL: 'fake-model',
            AGENT_LIMITS: JSON.stringify({ runsPerMinute: 1_000, readsPerMinute: 10_000 }),
            ...store.env,
          },
        });
        const startedAt = Date.now();
        const url = `${server.url}/conversations.html`;
        await openConversations(page, url);
        const widget = chat(page, CHAT);
        const panel = page.locator('agent-chat-conversations');
        const live = new Map<string, TranscriptRow[]>();

        for (const [index, shape] of SHAPES.entries()) {
          if (index > 0) {
            await panel.getByRole('button', { name: 'New conversation' }).click();
            await expect(widget.userMessages).toHaveCount(0);
          }
          const requestsBefore = fake.requests.length;
          await widget.send(shape.prompt);
          await shape.act?.(widget);
          await widget.waitForIdle();
          await expect
            .poll(() => fake.requests.length, `${shape.name}: model requests`)
            .toBe(requestsBefore + shape.requests);
          const state = await readConversationsState(page);
          const runId = state.run?.runId;
          expect(runId, `${shape.name}: the turn's run`).toBeDefined();
          const events = await readRunEvents(page.request, server.url, runId!, state.bootstrap!.identity.identityId);
          const expected = projectTranscript([events]);
          // The events themselves have the shape's items (the fake model was heard as scripted).
          expect
            .soft(
              expected.map((row) => row.kind),
              `${shape.name}: event order`,
            )
            .toEqual(shape.kinds(path));
          expect
            .soft(
              events.map((event) => event.type),
              `${shape.name}: the log`,
            )
            .toEqual(expect.arrayContaining(shape.logs ?? []));
          // The model heard every result of the turn.
          const heard = fake.requests.slice(requestsBefore).flatMap((request) => answeredCallIds(request.body));
          expect
            .soft(heard, `${shape.name}: tool results sent to the model`)
            .toEqual(expect.arrayContaining(shape.answered));
          const shown = await expectRows(page, expected, `${shape.name}: live order = event order`);
          live.set(shape.prompt, expected);
          table.push(`${shape.name}\n    events: ${describeRows(expected)}\n    live:   ${describeRows(shown)}`);
        }

        const turnsTook = Date.now() - startedAt;
        // Each conversation again: opened from another one in the sheet, then after a reload.
        const rows = panel.locator('li.row');
        for (const [index, shape] of SHAPES.entries()) {
          const expected = live.get(shape.prompt)!;
          await rows.filter({ hasText: shape.prompt }).locator('.open').click();
          await expect(widget.userMessages.first().locator('.message-body')).toHaveText(shape.prompt);
          const switched = await expectRows(page, expected, `${shape.name}: after a switch = live`);
          await page.reload();
          await openConversations(page, url);
          await expect(widget.userMessages.first().locator('.message-body')).toHaveText(shape.prompt);
          const reloaded = await expectRows(page, expected, `${shape.name}: after a reload = live`);
          table[index] += `\n    switch: ${describeRows(switched)}\n    reload: ${describeRows(reloaded)}`;
        }
        table.push(`turns ${turnsTook} ms, switches and reloads ${Date.now() - startedAt - turnsTook} ms`);
      } finally {
        await testInfo.attach('transcripts', { body: table.join('\n'), contentType: 'text/plain' });
        console.log(`${path.name}, ${storeName}:\n${table.map((line) => `  ${line}`).join('\n')}`);
        await server?.kill('SIGTERM');
        await store.stop();
        await fake.close();
      }
    });
  }
}
