import { describe, expect, it } from 'vitest';
import { sha256Digest } from '../json/canonical-json.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import { createDemoTools } from '../tools/demo-tools.ts';
import { ToolError } from '../tools/tool-registry.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, foldTypes, settle, startEngine } from './test-support/run-engine-harness.ts';

const REASONING = [
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT*',
  'REASONING_MESSAGE_END',
  'REASONING_END',
];
const TEXT = ['TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT*', 'TEXT_MESSAGE_END'];
const OPEN = ['RUN_STARTED', 'RUN_STATUS_CHANGED', 'STEP_STARTED'];
const isAwaiting = (s: { status: string }): boolean => s.status === 'awaiting_input';
/** `/approval`'s first round: it lists the user's drafts (read-only, runs at once). */
const LIST_DRAFTS_ROUND = [
  ...REASONING,
  ...TEXT,
  'TOOL_CALL_START',
  'TOOL_CALL_END',
  'TOOL_CALL_RESULT',
  'STEP_FINISHED',
  'STEP_STARTED',
];
const SEEDED_DRAFTS = {
  drafts: [
    { draftId: 'draft-42', title: 'Quarterly report (unfinished)' },
    { draftId: 'draft-43', title: 'Re: lunch on Friday' },
    { draftId: 'draft-44', title: 'Out of office' },
  ],
};
/** The results of `/approval`'s deletion (after the drafts.list result). */
const deletionResults = (events: Parameters<typeof dataOf>[0]) => dataOf(events, 'TOOL_CALL_RESULT').slice(1);

describe('tool scenarios of the scripted model', () => {
  it('/tool runs the read-only lookup at once and answers with its result', async () => {
    const run = startEngine('/tool');
    await run.done;
    expect(foldTypes(run.events())).toEqual([
      ...OPEN,
      ...REASONING,
      ...TEXT,
      'TOOL_CALL_START',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'STEP_STARTED',
      ...TEXT,
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    const args = { orderId: 'A-1001' };
    expect(dataOf(run.events(), 'TOOL_CALL_START')).toEqual([
      { toolCallId: 'tc_1', toolCallName: 'orders.lookup', parentMessageId: 'msg_2', title: 'Look up an order' },
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_END')).toEqual([
      { toolCallId: 'tc_1', args, argsDigest: sha256Digest(args) },
    ]);
    const [result] = dataOf(run.events(), 'TOOL_CALL_RESULT');
    expect(result?.status).toBe('completed');
    expect(JSON.parse(result?.content ?? '{}')).toMatchObject({ orderId: 'A-1001', carrier: 'DHL' });
    expect(dataOf(run.events(), 'TEXT_MESSAGE_END').map((d) => d.finishReason)).toEqual(['tool_calls', 'stop']);
    expect(run.handle.snapshot().messages.at(-1)?.content.startsWith('### Order A-1001')).toBe(true);
  });

  it('/approval asks, waits in awaiting_input, and runs the tool once the user allows', async () => {
    const run = startEngine('/approval');
    const waiting = await run.until(isAwaiting);
    const [interrupt] = waiting.interrupts;
    expect(interrupt).toEqual({
      id: 'int_1',
      reason: 'tool_call',
      toolCallId: 'tc_2',
      argsDigest: sha256Digest({ draftId: 'draft-42' }),
      message: 'Delete the draft "Quarterly report (unfinished)"?',
      expiresAt: new Date(run.clock.now() + 900_000).toISOString(),
      metadata: {
        destructive: true,
        summary: 'Delete the draft "Quarterly report (unfinished)"?',
        consequence: "This can't be undone.",
      },
      state: 'open',
      runId: 'run_1',
      seq: run.events().find((event) => event.type === 'INTERRUPT_REQUESTED')?.seq,
    });
    await run.decide('int_1', 'allow');
    await run.done;
    expect(foldTypes(run.events())).toEqual([
      ...OPEN,
      ...LIST_DRAFTS_ROUND,
      ...TEXT,
      'TOOL_CALL_START',
      'TOOL_CALL_END',
      'INTERRUPT_REQUESTED',
      'RUN_STATUS_CHANGED',
      'INTERRUPT_RESOLVED',
      'RUN_STATUS_CHANGED',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'STEP_STARTED',
      ...TEXT,
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    expect(dataOf(run.events(), 'RUN_STATUS_CHANGED').map((d) => d.status)).toEqual([
      'running',
      'awaiting_input',
      'running',
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['completed', JSON.stringify(SEEDED_DRAFTS)],
      ['completed', '{"draftId":"draft-42","deleted":true}'],
    ]);
    expect(run.handle.snapshot().messages.at(-1)?.content).toBe('Done: **draft-42** was deleted.');
  });

  it('/approval denied gives the model a denied result and the loop goes on', async () => {
    const run = startEngine('/approval');
    await run.until(isAwaiting);
    await run.decide('int_1', 'deny');
    await run.done;
    expect(deletionResults(run.events()).map((d) => [d.status, d.content])).toEqual([
      ['denied', 'The user denied this tool call, so it was not run.'],
    ]);
    expect(run.handle.snapshot().status).toBe('completed');
    expect(run.handle.snapshot().messages.at(-1)?.content).toBe('Understood: I did **not** delete draft-42.');
  });

  it('an approval that outlives its TTL expires as a deny (fail closed)', async () => {
    const run = startEngine('/approval', { limits: { interruptTtlMs: 5000 } });
    await run.until(isAwaiting);
    await settle();
    run.clock.advance(4999);
    expect(run.handle.snapshot().status).toBe('awaiting_input');
    run.clock.advance(1);
    await run.done;
    expect(dataOf(run.events(), 'INTERRUPT_RESOLVED')).toEqual([
      { interruptId: 'int_1', status: 'expired', decision: 'deny', resolvedBy: 'timeout' },
    ]);
    expect(deletionResults(run.events()).map((d) => d.status)).toEqual(['denied']);
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('approvals disabled fail every ask closed to deny without an interrupt', async () => {
    const run = startEngine('/approval', { approvals: false });
    await run.done;
    expect(run.types().includes('INTERRUPT_REQUESTED')).toBe(false);
    expect(deletionResults(run.events()).map((d) => [d.status, d.content])).toEqual([
      ['denied', 'This tool needs approval and nobody can approve it here, so it was not run.'],
    ]);
  });

  it('/progress reports coalesced progress (at most one per second, the final one always)', async () => {
    const run = startEngine('/progress');
    await run.done;
    // Sections finish at 400, 800, 1200, 1600 ms: the first goes out, the next two are held and merged, the last is final.
    expect(dataOf(run.events(), 'TOOL_CALL_PROGRESS')).toEqual([
      { toolCallId: 'tc_1', message: 'Wrote section 1 of 4', fraction: 0.25 },
      { toolCallId: 'tc_1', message: 'Wrote section 3 of 4', fraction: 0.75 },
      { toolCallId: 'tc_1', message: 'Wrote section 4 of 4', fraction: 1 },
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => d.status)).toEqual(['completed']);
  });
});

describe('governance order: policy → pre-use hook (tighten only) → canExecuteTool → approval', () => {
  it('a hook may tighten allow to ask and to deny', async () => {
    const asked = startEngine('/tool', { hooks: { preToolUse: () => 'ask' } });
    await asked.until(isAwaiting);
    await asked.decide('int_1', 'allow');
    await asked.done;
    expect(dataOf(asked.events(), 'TOOL_CALL_RESULT').map((d) => d.status)).toEqual(['completed']);

    const denied = startEngine('/tool', { hooks: { preToolUse: () => 'deny' } });
    await denied.done;
    expect(denied.types().includes('INTERRUPT_REQUESTED')).toBe(false);
    expect(dataOf(denied.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['denied', 'A policy denies this tool call, so it was not run.'],
    ]);
  });

  it('a hook can never loosen ask to allow, and a throwing hook denies', async () => {
    const loosened = startEngine('/approval', { hooks: { preToolUse: () => 'allow' } });
    await loosened.until(isAwaiting);
    await loosened.decide('int_1', 'deny');
    await loosened.done;
    expect(deletionResults(loosened.events()).map((d) => d.status)).toEqual(['denied']);

    const thrown = startEngine('/tool', {
      hooks: {
        preToolUse: () => {
          throw new Error('hook down');
        },
      },
    });
    await thrown.done;
    expect(dataOf(thrown.events(), 'TOOL_CALL_RESULT').map((d) => d.status)).toEqual(['denied']);
  });

  it('canExecuteTool false (or throwing) denies before any approval is asked', async () => {
    const seen: unknown[] = [];
    const run = startEngine('/approval', {
      canExecuteTool: (subject, call) => {
        seen.push([subject.id, call.name, call.args]);
        return call.name !== 'drafts.delete';
      },
    });
    await run.done;
    expect(seen).toEqual([
      ['usr_1', 'drafts.list', {}],
      ['usr_1', 'drafts.delete', { draftId: 'draft-42' }],
    ]);
    expect(run.types().includes('INTERRUPT_REQUESTED')).toBe(false);
    expect(deletionResults(run.events()).map((d) => [d.status, d.content])).toEqual([
      ['denied', 'You are not permitted to run this tool, so it was not run.'],
    ]);
  });

  it('post-use hooks see the outcome and may replace the content', async () => {
    const outcomes: unknown[] = [];
    const run = startEngine('/tool', {
      hooks: {
        postToolUse: (call, outcome) => {
          outcomes.push([call.name, outcome.status, outcome.truncated]);
          return { content: '{"redacted":true}' };
        },
      },
    });
    await run.done;
    expect(outcomes).toEqual([['orders.lookup', 'completed', false]]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => d.content)).toEqual(['{"redacted":true}']);
  });
});

describe('tool failures go back to the model and the loop goes on', () => {
  const answerAfterTool = [
    { type: 'text' as const, delta: 'Handled.' },
    { type: 'finish' as const, reason: 'stop' as const },
  ];
  const callOnce = (name: string, args: string) => [
    { type: 'tool_call' as const, id: 'call_a', name, arguments: args },
    { type: 'finish' as const, reason: 'tool_calls' as const },
  ];
  const throwing: ToolDefinition = {
    name: 'flaky',
    description: 'Always throws',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    policy: 'allow',
    run: () => Promise.reject(new Error('secret stack detail')),
  };
  const safe: ToolDefinition = {
    ...throwing,
    name: 'safe',
    run: () => Promise.reject(new ToolError('The order service is down.')),
  };

  it.each([
    ['a tool that throws', callOnce('flaky', '{}'), 'The tool failed unexpectedly (reference corr_1).'],
    ['a tool that throws a ToolError', callOnce('safe', '{}'), 'The order service is down.'],
    [
      'arguments that are not JSON',
      callOnce('orders.lookup', '{"orderId": '),
      'The arguments are not valid JSON, so the tool was not run.',
    ],
    [
      'arguments that break the schema',
      callOnce('orders.lookup', '{"orderId": 7, "extra": 1}'),
      "The arguments do not match the tool's schema, so it was not run: $.extra is not allowed; $.orderId must be a string.",
    ],
    [
      'arguments that break a keyword the old subset ignored (pattern)',
      callOnce('orders.lookup', '{"orderId": "Z-9"}'),
      'The arguments do not match the tool\'s schema, so it was not run: $.orderId must match pattern "^A-[0-9]+$".',
    ],
    ['an unknown tool', callOnce('nope.missing', '{}'), 'There is no tool named "nope.missing".'],
  ])('%s gives a failed result and a second round', async (_title, firstCall, content) => {
    const model = createListModel([firstCall, answerAfterTool]);
    const run = startEngine('go', { model, tools: [...createDemoTools(), throwing, safe] });
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT')).toEqual([
      { toolCallId: 'tc_1', messageId: 'msg_1', content, status: 'failed' },
    ]);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'call_a',
      content,
      status: 'failed',
    });
    expect(run.handle.snapshot().status).toBe('completed');
    expect(JSON.stringify(run.events()).includes('secret stack detail')).toBe(false);
  });

  it('a length stop fails every pending tool call without running it', async () => {
    let runs = 0;
    const counted: ToolDefinition = {
      ...throwing,
      name: 'counted',
      run: async () => {
        runs += 1;
        return 'ran';
      },
    };
    const model = createListModel([
      [
        { type: 'tool_call_delta', index: 0, id: 'call_x', name: 'counted', argumentsDelta: '{' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '}' },
        { type: 'tool_call', id: 'call_y', name: 'counted', arguments: '{}' },
        { type: 'finish', reason: 'length' },
      ],
      answerAfterTool,
    ]);
    const run = startEngine('go', { model, tools: [counted] });
    await run.done;
    expect(runs).toBe(0);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.toolCallId, d.status])).toEqual([
      ['tc_1', 'failed'],
      ['tc_2', 'failed'],
    ]);
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('truncates a large result and says so, never silently', async () => {
    const big: ToolDefinition = { ...throwing, name: 'big', run: async () => 'x'.repeat(50) };
    const model = createListModel([callOnce('big', '{}'), answerAfterTool]);
    const run = startEngine('go', { model, tools: [big], limits: { maxResultChars: 20 } });
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT')).toEqual([
      { toolCallId: 'tc_1', messageId: 'msg_1', content: 'x'.repeat(20), status: 'completed', truncated: true },
    ]);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'call_a',
      content: `${'x'.repeat(20)}\n[truncated to 20 characters]`,
      status: 'completed',
    });
  });
});
