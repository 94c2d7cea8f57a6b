import { describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../protocol.ts';
import { createEmptyRunSnapshot } from '../state/run-reducer.ts';
import { mergeTranscript } from './merge-transcript.ts';

const message = (messageId: string, content: string, extra: Partial<SnapshotMessage> = {}): SnapshotMessage => ({
  messageId,
  role: 'assistant',
  content,
  status: 'complete',
  ...extra,
});

describe('mergeTranscript', () => {
  it('replaces a settled message by the run snapshot of the same id in place and appends new ones', () => {
    const history = [message('m1', 'old question', { role: 'user' }), message('m2', 'settled answer')];
    const run = {
      ...createEmptyRunSnapshot('run_1', 'ses_1'),
      messages: [message('m2', 'settled answer!'), message('m3', 'streaming', { status: 'streaming' })],
    };
    expect(
      mergeTranscript({ history, historyToolCalls: [], historyInterrupts: [], runs: [run], optimistic: null }).messages,
    ).toEqual([
      message('m1', 'old question', { role: 'user' }),
      message('m2', 'settled answer!'),
      message('m3', 'streaming', { status: 'streaming' }),
    ]);
  });

  it('shows the optimistic message only until a run echoes its clientMessageId', () => {
    const optimistic = message('cm_1', 'hi', { role: 'user', clientMessageId: 'cm_1' });
    const empty = createEmptyRunSnapshot('run_1', 'ses_1');
    expect(
      mergeTranscript({ history: [], historyToolCalls: [], historyInterrupts: [], runs: [empty], optimistic }).messages,
    ).toEqual([optimistic]);
    const echoed = { ...empty, messages: [message('msg_u', 'hi', { role: 'user', clientMessageId: 'cm_1' })] };
    expect(
      mergeTranscript({ history: [], historyToolCalls: [], historyInterrupts: [], runs: [echoed], optimistic })
        .messages,
    ).toEqual([message('msg_u', 'hi', { role: 'user', clientMessageId: 'cm_1' })]);
  });

  it("puts a retry's discarded messages back where they stood, before what the retry streamed", () => {
    const user = message('u1', 'question', { role: 'user' });
    const reasoning = message('r1', 'first thought', { role: 'reasoning' });
    const partial = message('a1', 'half an', { status: 'error' });
    const retried = message('r2', 'second thought', { role: 'reasoning', status: 'streaming' });
    // Discarded in order: the reasoning at index 1, then the text (by then at index 1 too).
    const run = { ...createEmptyRunSnapshot('run_1', 'ses_1'), messages: [user, retried] };
    const discarded = [
      { runId: 'run_1', index: 1, message: reasoning },
      { runId: 'run_1', index: 1, message: partial },
      { runId: 'run_2', index: 0, message: message('x1', 'another run') },
    ];
    expect(
      mergeTranscript({
        history: [],
        historyToolCalls: [],
        historyInterrupts: [],
        runs: [run],
        optimistic: null,
        discarded,
      }).messages,
    ).toEqual([user, reasoning, partial, retried]);
  });

  it('keeps the identity of unchanged messages and merges tool calls and interrupts by id', () => {
    const kept = message('m1', 'same');
    const first = {
      ...createEmptyRunSnapshot('run_1', 'ses_1'),
      messages: [kept],
      toolCalls: [{ toolCallId: 'tc_1', name: 'a', status: 'completed' as const }],
    };
    const second = {
      ...createEmptyRunSnapshot('run_2', 'ses_1'),
      toolCalls: [{ toolCallId: 'tc_2', name: 'b', status: 'pending' as const }],
      interrupts: [{ id: 'int_1', reason: 'tool_call', state: 'open' as const }],
    };
    const merged = mergeTranscript({
      history: [],
      historyToolCalls: [],
      historyInterrupts: [],
      runs: [first, second],
      optimistic: null,
    });
    expect(merged.messages[0]).toBe(kept);
    expect(merged.toolCalls.map((c) => c.toolCallId)).toEqual(['tc_1', 'tc_2']);
    expect(merged.interrupts).toEqual([{ id: 'int_1', reason: 'tool_call', state: 'open' }]);
  });

  it("puts the settled history's tool calls first, and a followed run's copy of one replaces it in place", () => {
    const settled = { toolCallId: 'tc_1', name: 'orders.card', status: 'completed' as const, runId: 'run_1' };
    const older = { ...settled, toolCallId: 'tc_0' };
    const run = {
      ...createEmptyRunSnapshot('run_1', 'ses_1'),
      toolCalls: [
        { ...settled, title: 'Order 42' },
        { toolCallId: 'tc_2', name: 'orders.track', status: 'running' as const },
      ],
    };
    const merged = mergeTranscript({
      history: [],
      historyToolCalls: [older, settled],
      historyInterrupts: [],
      runs: [run],
      optimistic: null,
    });
    expect(merged.toolCalls.map((call) => [call.toolCallId, call.title])).toEqual([
      ['tc_0', undefined],
      ['tc_1', 'Order 42'],
      ['tc_2', undefined],
    ]);
  });
});
