import { describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from '../models/openai-compatible-model.ts';
import { buildLongMarkdown } from '../models/scripted-markdown.ts';
import { sseChunk, startFakeOpenAiServer } from '../models/test-support/fake-openai-server.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { createRunEngine } from './create-run-engine.ts';
import { createMemoryRunHandle } from './test-support/memory-run-handle.ts';
import { dataOf, foldTypes, startEngine } from './test-support/run-engine-harness.ts';

const TEXT_TURN = [
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT*',
  'REASONING_MESSAGE_END',
  'REASONING_END',
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT*',
  'TEXT_MESSAGE_END',
];

describe('createRunEngine with the scripted model: text scenarios', () => {
  it('answers plain text with reasoning, then Markdown, then success with usage', async () => {
    const run = startEngine('Hello there');
    await run.done;
    expect(foldTypes(run.events())).toEqual([
      'RUN_STARTED',
      'RUN_STATUS_CHANGED',
      'STEP_STARTED',
      ...TEXT_TURN,
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    const snapshot = run.handle.snapshot();
    expect(snapshot.status).toBe('completed');
    expect(snapshot.outcome).toEqual({ type: 'success' });
    expect(snapshot.messages.map((m) => [m.messageId, m.role, m.status])).toEqual([
      ['msg_user', 'user', 'complete'],
      ['msg_1', 'reasoning', 'complete'],
      ['msg_2', 'assistant', 'complete'],
    ]);
    expect(snapshot.messages[2]?.content.startsWith('### Scripted answer\n\nYou wrote: *Hello there*')).toBe(true);
    expect(dataOf(run.events(), 'STEP_STARTED')).toEqual([{ stepName: 'round:1' }]);
    expect(dataOf(run.events(), 'TEXT_MESSAGE_END')).toEqual([{ messageId: 'msg_2', finishReason: 'stop' }]);
    const usage = snapshot.usage?.[0];
    expect(usage?.modelId).toBe('scripted');
    expect((usage?.inputTokens ?? 0) > 0 && (usage?.outputTokens ?? 0) > 0).toBe(true);
  });

  it('echoes /echo text verbatim, coalescing small deltas into fewer events', async () => {
    const text = 'Ünïcödé 👋 stays *exactly* as sent, spaces   and all.';
    const run = startEngine(`/echo ${text}`, { limits: { deltaFlushMs: 40 } });
    await run.done;
    expect(foldTypes(run.events())).toEqual([
      'RUN_STARTED',
      'RUN_STATUS_CHANGED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT*',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    const deltas = dataOf(run.events(), 'TEXT_MESSAGE_CONTENT').map((d) => d.delta);
    expect(deltas.join('')).toBe(text);
    // 13 four-character pieces, 25 ms apart, flushed at most every 40 ms: 9 events.
    expect(deltas.length).toBe(9);
    expect(deltas.every((delta) => delta !== '')).toBe(true);
  });

  it('writes about n characters of varied Markdown for /long n', async () => {
    const run = startEngine('/long 3000');
    await run.done;
    const answer = run.handle.snapshot().messages.find((m) => m.role === 'assistant')?.content;
    expect(answer).toBe(buildLongMarkdown(3000));
    expect(answer?.length).toBeLessThanOrEqual(3000);
    expect(answer?.length).toBeGreaterThan(2950);
    expect(answer?.endsWith('…')).toBe(true);
    for (const marker of [
      '## Section',
      '- First point',
      '```ts',
      '| Item |',
      '[link](https://',
      '> Note',
      '1. Prepare',
    ]) {
      expect(answer?.includes(marker)).toBe(true);
    }
    const deltas = dataOf(run.events(), 'TEXT_MESSAGE_CONTENT');
    expect(deltas.every((d) => Buffer.byteLength(d.delta) <= 512 + 64)).toBe(true);
  });

  it('streams /slow for about 30 s of (virtual) time', async () => {
    const run = startEngine('/slow');
    await run.done;
    const events = run.events();
    const span = (events.at(-1)?.timestamp ?? 0) - (events[0]?.timestamp ?? 0);
    expect(span >= 30_000 && span < 31_000).toBe(true);
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('hands earlier turns of the session to the model before the new input', async () => {
    const run = startEngine('/echo ok', {
      history: [
        { messageId: 'm1', role: 'user', content: 'first question', status: 'complete' },
        { messageId: 'm2', role: 'reasoning', content: 'hidden', status: 'complete' },
        { messageId: 'm3', role: 'assistant', content: 'first answer', status: 'complete' },
      ],
    });
    await run.done;
    expect(run.handle.snapshot().messages.at(-1)?.content).toBe('ok');
  });

  it('refuses to start with a tool whose parameters schema is invalid, naming the tool', () => {
    const [lookup] = createDemoTools();
    if (lookup === undefined) throw new Error('no demo tool');
    const broken = { ...lookup, name: 'orders.broken', parameters: { type: 'object', properties: { id: 'string' } } };
    expect(() => createRunEngine({ tools: [lookup, broken] })).toThrow(
      'Tool "orders.broken" has an invalid parameters schema: schema is invalid: data/properties/id must be object,boolean',
    );
  });
});

describe('createRunEngine defaults', () => {
  it('offers a model no tools unless the product passes them (never the demo tools)', async () => {
    const provider = await startFakeOpenAiServer();
    try {
      provider.reply({
        kind: 'stream',
        pieces: [
          sseChunk({ choices: [{ index: 0, delta: { content: 'Hi.' }, finish_reason: 'stop' }] }),
          'data: [DONE]\n\n',
        ],
      });
      const model = createOpenAiCompatibleModel({ baseUrl: provider.baseUrl, model: 'm-test' });
      const [lookup] = createDemoTools({ stepMs: 0 });
      if (lookup === undefined) throw new Error('no demo tool');
      for (const options of [{ model }, { model, tools: [lookup] }]) {
        const run = createMemoryRunHandle({ text: 'Hello', now: Date.now });
        await createRunEngine({ ...options, log: () => undefined }).start(run.handle);
        expect(run.handle.snapshot().status).toBe('completed');
      }
      expect(provider.requests.map((request) => 'tools' in request.body)).toEqual([false, true]);
      expect(provider.requests[1]?.body['tools']).toEqual([
        { type: 'function', function: expect.objectContaining({ name: 'orders_lookup' }) },
      ]);
    } finally {
      await provider.close();
    }
  });
});
