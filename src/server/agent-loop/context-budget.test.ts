import { describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../../core/protocol.ts';
import type { ModelAdapter, ModelMessage, ModelRequest } from '../models/model-adapter.ts';
import type { SettledToolCall } from '../storage/storage-port.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, startEngine } from './test-support/run-engine-harness.ts';
import { countRequestChars } from './token-estimate.ts';

const ANSWER = [
  { type: 'text' as const, delta: 'ok' },
  { type: 'usage' as const, usage: { inputTokens: 100, outputTokens: 1 } },
  { type: 'finish' as const, reason: 'stop' as const },
];

/** `turns` earlier runs of a session: a question, an `orders.lookup` round with its result, an answer. */
function session(turns: number): { history: SnapshotMessage[]; historyToolCalls: SettledToolCall[] } {
  const history: SnapshotMessage[] = [];
  const historyToolCalls: SettledToolCall[] = [];
  for (let i = 1; i <= turns; i += 1) {
    const runId = `run_h${i}`;
    const base = { status: 'complete' as const, runId };
    history.push(
      { ...base, messageId: `u${i}`, role: 'user', content: `Where is order A-${i}? ${'Some detail. '.repeat(20)}` },
      { ...base, messageId: `a${i}`, role: 'assistant', content: 'Looking it up.', finishReason: 'tool_calls' },
      { ...base, messageId: `f${i}`, role: 'assistant', content: `Order A-${i} has shipped. ${'More. '.repeat(20)}` },
    );
    historyToolCalls.push({
      runId,
      toolCallId: `tc_h${i}`,
      name: 'orders.lookup',
      parentMessageId: `a${i}`,
      args: { orderId: `A-${i}` },
      argsDigest: 'sha256:x',
      status: 'completed',
      result: { messageId: `r${i}`, content: `{"orderId":"A-${i}","status":"shipped"}` },
    });
  }
  return { history, historyToolCalls };
}

const systemLayers = (messages: readonly ModelMessage[]): (string | undefined)[] =>
  messages.flatMap((m) => (m.role === 'system' ? [m.layer] : []));

describe('long sessions fit the token budget', () => {
  it('a 500-turn session still answers: the newest turns with their tool pairs, one note, the new message', async () => {
    const model = createListModel([ANSWER]);
    const run = startEngine('And order A-501?', { model, ...session(500) });
    await run.done;
    expect(run.handle.snapshot().status).toBe('completed');
    const [request] = model.requests;
    const messages = request?.messages ?? [];
    expect(systemLayers(messages)).toEqual(['kernel', 'history_note']);
    const note = messages.find((m) => m.role === 'system' && m.layer === 'history_note')?.content ?? '';
    const leftOut = Number(/(\d+) earlier turns/.exec(note)?.[1]);
    const kept = messages.filter((m) => m.role === 'user').length - 1;
    expect(kept + leftOut).toBe(500);
    expect(kept).toBeGreaterThan(100);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'And order A-501?' });
    const callIds = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    expect(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []))).toEqual(callIds);
    expect(callIds.at(-1)).toBe('tc_h500');
    expect(callIds).toHaveLength(kept);
  });

  it('uses the reported prompt tokens of the last call to estimate the next, keeping fewer turns when tokens run dearer', async () => {
    const requests: ModelRequest[] = [];
    // A provider whose tokenizer counts two characters per token (the default estimate is four).
    const model: ModelAdapter = {
      id: 'dear-tokens',
      async *stream(request) {
        requests.push(request);
        const inputTokens = Math.ceil(countRequestChars(request.messages, request.tools) / 2);
        if (requests.length === 1)
          yield { type: 'tool_call', id: 'c1', name: 'orders.lookup', arguments: '{"orderId":"A-1"}' };
        else yield { type: 'text', delta: 'ok' };
        yield { type: 'usage', usage: { inputTokens, outputTokens: 1 } };
        yield { type: 'finish', reason: requests.length === 1 ? 'tool_calls' : 'stop' };
      },
    };
    const run = startEngine('Where is A-1?', { model, ...session(300), limits: { tokenBudget: 20_000 } });
    await run.done;
    const kept = requests.map((r) => r.messages.filter((m) => m.role === 'user').length - 1);
    const sizes = requests.map((r) => countRequestChars(r.messages, r.tools));
    expect(kept[0]).toBeGreaterThan(20);
    // Half as many characters per token: the second request is about half as long (its own new round takes a turn's room).
    expect(sizes[0]).toBeLessThanOrEqual(80_000);
    expect(sizes[1]).toBeLessThanOrEqual(40_000);
    expect(Math.abs((kept[1] ?? 0) - (kept[0] ?? 0) / 2)).toBeLessThanOrEqual(3);
  });

  it('ends TOKEN_BUDGET_EXCEEDED only when the run itself does not fit, whatever the history', async () => {
    const model = createListModel([ANSWER]);
    const run = startEngine('x'.repeat(5_000), { model, ...session(50), limits: { tokenBudget: 1_000 } });
    await run.done;
    expect(model.requests).toHaveLength(0);
    expect(dataOf(run.events(), 'RUN_ERROR').map((e) => [e.code, e.retryable])).toEqual([
      ['TOKEN_BUDGET_EXCEEDED', false],
    ]);
  });
});

describe('prompt layers', () => {
  it('sends the kernel prompt, the product prompt and the send instruction, which never enters the log', async () => {
    const model = createListModel([ANSWER]);
    const run = startEngine('Hi', {
      model,
      kernelPrompt: 'KERNEL RULES',
      productPrompt: 'You are the orders assistant of Acme.',
      input: { instruction: 'Answer in French.' },
    });
    await run.done;
    expect(model.requests[0]?.messages).toEqual([
      { role: 'system', layer: 'kernel', content: 'KERNEL RULES' },
      { role: 'system', layer: 'product', content: 'You are the orders assistant of Acme.' },
      { role: 'system', layer: 'instruction', content: 'Answer in French.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(JSON.stringify(run.events()).includes('Answer in French')).toBe(false);
  });

  it('cuts the focus context to its share with a notice to the model and a NOTICE to the user, once', async () => {
    const model = createListModel([
      [
        { type: 'tool_call', id: 'c1', name: 'orders.lookup', arguments: '{"orderId":"A-1"}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      ANSWER,
    ]);
    const run = startEngine('Summarize this page', {
      model,
      input: { focus: { title: 'Invoice 7', text: 'line\n'.repeat(2_000) } },
      limits: { tokenBudget: 5_000 },
    });
    await run.done;
    expect(model.requests).toHaveLength(2);
    const focus = model.requests[1]?.messages.find((m) => m.role === 'system' && m.layer === 'focus');
    expect(focus).toEqual(expect.objectContaining({ truncated: true }));
    expect(focus?.content.startsWith('What the user is looking at in the product')).toBe(true);
    expect(focus?.content).toMatch(
      /\[The page context was cut to fit the context budget: the first \d+ of 10018 characters are shown\.\]$/,
    );
    expect(dataOf(run.events(), 'NOTICE')).toEqual([
      {
        level: 'info',
        code: 'CONTEXT_TRUNCATED',
        message: expect.stringMatching(
          /^To fit the agent's context, it was given only part of the page context \(\d+ of 10018 characters\)\.$/,
        ),
      },
    ]);
  });

  it('/context answers with the layers the scripted model received, their sizes and cuts', async () => {
    const run = startEngine('/context', {
      kernelPrompt: 'K'.repeat(100),
      productPrompt: 'P'.repeat(40),
      input: {
        instruction: 'Be brief.',
        focus: { text: 'f'.repeat(30_000) },
        attachments: [{ ref: 'doc:1', title: 'Spec', text: 'Spec text.' }],
      },
      ...session(3),
    });
    await run.done;
    const answer = run.handle.snapshot().messages.find((m) => m.role === 'assistant')?.content ?? '';
    const lines = answer.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      '### What reached the model',
      '',
      '| Layer | Characters | Cut |',
      '| --- | --- | --- |',
      '| kernel | 100 | no |',
      '| product | 40 | no |',
    ]);
    expect(lines[6]).toMatch(/^\| focus \| \d+ \| yes \|$/);
    expect(lines.slice(7)).toEqual([
      '| attachments | 89 | no |',
      '| instruction | 9 | no |',
      '| history | 12 messages | no |',
      '| message | 8 | no |',
      '',
      'Tools: 5.',
      expect.stringMatching(/^Asked before: “.+”\.$/),
    ]);
  });
});
