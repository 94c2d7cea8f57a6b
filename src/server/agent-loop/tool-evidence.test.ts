import { describe, expect, it } from 'vitest';
import type { ModelChunk } from '../models/model-adapter.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import { endRun } from '../tools/tool-outcomes.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, startEngine } from './test-support/run-engine-harness.ts';

const isAwaiting = (s: { status: string }): boolean => s.status === 'awaiting_input';

describe('the governed tool path records its evidence', () => {
  it("logs each check's decision and reason as it happens and attaches the trail to the result", async () => {
    const run = startEngine('/tool', {
      hooks: {
        preToolUse: () => ({ policy: 'ask', reason: 'Order lookups are audited this week.' }),
        postToolUse: () => ({ content: '{"status":"shipped"}', reason: 'Removed the delivery address.' }),
      },
      canExecuteTool: () => true,
    });
    await run.until(isAwaiting);
    await run.decide('int_1', 'allow');
    await run.done;
    const trail = [
      { source: 'pre_tool_use', decision: 'ask', reason: 'Order lookups are audited this week.' },
      { source: 'can_execute', decision: 'allow' },
      { source: 'post_tool_use', decision: 'replaced', reason: 'Removed the delivery address.' },
    ];
    expect(dataOf(run.events(), 'CUSTOM')).toEqual(
      trail.map((entry) => ({ name: 'tool.evidence', value: { toolCallId: 'tc_1', ...entry } })),
    );
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.content, d.evidence])).toEqual([
      ['{"status":"shipped"}', trail],
    ]);
    expect(run.handle.snapshot().toolCalls[0]?.result?.evidence).toEqual(trail);
  });

  it('records a denial by the permission check and a hook that failed, and nothing when no check ran', async () => {
    const denied = startEngine('/tool', {
      hooks: {
        preToolUse: () => {
          throw new Error('policy service down');
        },
      },
    });
    await denied.done;
    expect(dataOf(denied.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.evidence])).toEqual([
      ['denied', [{ source: 'pre_tool_use', decision: 'deny', reason: 'The pre-use hook failed.' }]],
    ]);

    const refused = startEngine('/tool', { canExecuteTool: () => false });
    await refused.done;
    expect(dataOf(refused.events(), 'TOOL_CALL_RESULT').map((d) => d.evidence)).toEqual([
      [{ source: 'can_execute', decision: 'deny' }],
    ]);

    const plain = startEngine('/tool');
    await plain.done;
    expect(dataOf(plain.events(), 'TOOL_CALL_RESULT').map((d) => 'evidence' in d)).toEqual([false]);
    expect(dataOf(plain.events(), 'CUSTOM')).toEqual([]);
  });
});

describe('evidence across a restart', () => {
  const deleteTurn: ModelChunk[] = [
    { type: 'tool_call', id: 'call_a', name: 'drafts.delete', arguments: '{"draftId":"draft-42"}' },
    { type: 'finish', reason: 'tool_calls' },
  ];
  const answer: ModelChunk[] = [
    { type: 'text', delta: 'Deleted.' },
    { type: 'finish', reason: 'stop' },
  ];

  it("a resumed round attaches the decisions logged before the restart to the call's result", async () => {
    const first = startEngine('Delete draft 42', {
      model: createListModel([deleteTurn, answer]),
      hooks: { preToolUse: () => ({ policy: 'ask', reason: 'Deletes are reviewed.' }) },
    });
    await first.until(isAwaiting);
    let count = 0;
    const second = startEngine('Delete draft 42', {
      model: createListModel([answer]),
      resumeLog: first.events(),
      startAt: 1_800_000_060_000,
      ids: (prefix) => `${prefix}_r${(count += 1)}`,
    });
    await second.until(isAwaiting);
    await second.decide('int_1', 'allow');
    await second.done;
    expect(dataOf(second.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.evidence])).toEqual([
      ['completed', [{ source: 'pre_tool_use', decision: 'ask', reason: 'Deletes are reviewed.' }]],
    ]);
  });
});

describe('a tool may end the run on purpose', () => {
  const handOver: ToolDefinition = {
    name: 'support.hand_over',
    description: 'Hands the conversation to a human',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    policy: 'allow',
    run: async () => endRun('Handed over to a human agent.', { ticket: 'T-1' }),
  };

  it('completes the call, runs no further turn and finishes the run as stopped, not failed', async () => {
    const model = createListModel([
      [
        { type: 'tool_call', id: 'call_a', name: 'support.hand_over', arguments: '{}' },
        { type: 'finish', reason: 'tool_calls' },
      ],
      [
        { type: 'text', delta: 'never said' },
        { type: 'finish', reason: 'stop' },
      ],
    ]);
    const run = startEngine('help', { model, tools: [handOver] });
    await run.done;
    expect(model.requests).toHaveLength(1);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['completed', '{"ticket":"T-1"}'],
    ]);
    expect(dataOf(run.events(), 'RUN_FINISHED').map((d) => d.outcome)).toEqual([
      { type: 'stopped', reason: 'Handed over to a human agent.', toolCallId: 'tc_1' },
    ]);
    expect(run.handle.snapshot().status).toBe('completed');
    expect(run.types().includes('RUN_ERROR')).toBe(false);
  });
});
