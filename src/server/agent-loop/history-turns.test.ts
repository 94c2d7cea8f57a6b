import { describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../../core/protocol.ts';
import type { SettledToolCall } from '../storage/storage-port.ts';
import { buildHistoryTurns } from './history-turns.ts';

const message = (runId: string, messageId: string, role: 'user' | 'assistant', content: string): SnapshotMessage => ({
  messageId,
  role,
  content,
  status: 'complete',
  runId,
});

const call = (
  runId: string,
  toolCallId: string,
  parentMessageId: string | undefined,
  content: string,
  status: SettledToolCall['status'] = 'completed',
): SettledToolCall => ({
  runId,
  toolCallId,
  name: 'orders.lookup',
  args: { orderId: toolCallId },
  argsDigest: 'sha256:x',
  status,
  ...(parentMessageId === undefined ? {} : { parentMessageId }),
  result: { messageId: `res_${toolCallId}`, content },
});

describe('buildHistoryTurns', () => {
  it('puts each tool call right after the text that made it, paired with its result by id', () => {
    const turns = buildHistoryTurns({
      messages: [
        message('run_1', 'u1', 'user', 'Where are A and B?'),
        message('run_1', 'a1', 'assistant', 'Looking both up.'),
        message('run_1', 'a2', 'assistant', 'A shipped, B was denied.'),
      ],
      toolCalls: [call('run_1', 'tc_a', 'a1', 'shipped'), call('run_1', 'tc_b', 'a1', 'no', 'denied')],
      maxResultChars: 100,
    });
    expect(turns).toHaveLength(1);
    expect(turns[0]?.messages).toEqual([
      { role: 'user', content: 'Where are A and B?' },
      {
        role: 'assistant',
        content: 'Looking both up.',
        toolCalls: [
          { id: 'tc_a', name: 'orders.lookup', arguments: '{"orderId":"tc_a"}' },
          { id: 'tc_b', name: 'orders.lookup', arguments: '{"orderId":"tc_b"}' },
        ],
      },
      { role: 'tool', toolCallId: 'tc_a', content: 'shipped', status: 'completed' },
      { role: 'tool', toolCallId: 'tc_b', content: 'no', status: 'denied' },
      { role: 'assistant', content: 'A shipped, B was denied.' },
    ]);
  });

  it('places a round without text after the round before it, and keeps runs apart, oldest first', () => {
    const turns = buildHistoryTurns({
      messages: [
        message('run_1', 'u1', 'user', 'first'),
        message('run_1', 'a1', 'assistant', 'done one'),
        message('run_2', 'u2', 'user', 'second'),
        message('run_2', 'a2', 'assistant', 'checking'),
        message('run_2', 'a3', 'assistant', 'done two'),
      ],
      toolCalls: [
        call('run_1', 'tc_1', undefined, 'r1'),
        call('run_2', 'tc_2', 'a2', 'r2'),
        call('run_2', 'tc_3', undefined, 'r3'),
      ],
      maxResultChars: 100,
    });
    expect(turns.map((turn) => turn.runId)).toEqual(['run_1', 'run_2']);
    expect(turns.map((turn) => turn.messages.map((m) => `${m.role}:${m.content || '∅'}`))).toEqual([
      ['user:first', 'assistant:∅', 'tool:r1', 'assistant:done one'],
      ['user:second', 'assistant:checking', 'tool:r2', 'assistant:∅', 'tool:r3', 'assistant:done two'],
    ]);
    // 'first' 5 + '' with orders.lookup {"orderId":"tc_1"} 31 + 'r1' 2 + 'done one' 8, plus 16 per message.
    expect(turns[0]?.chars).toBe(110);
  });

  it('says a result was truncated, and gives a call without a result one anyway', () => {
    const cut = {
      ...call('run_1', 'tc_1', 'a1', 'x'.repeat(10)),
      result: { messageId: 'r', content: 'xx', truncated: true },
    };
    const lost: SettledToolCall = { ...call('run_1', 'tc_2', 'a1', ''), status: 'running' };
    delete lost.result;
    const [turn] = buildHistoryTurns({
      messages: [message('run_1', 'u1', 'user', 'go'), message('run_1', 'a1', 'assistant', 'on it')],
      toolCalls: [cut, lost],
      maxResultChars: 2,
    });
    expect(turn?.messages.slice(2)).toEqual([
      { role: 'tool', toolCallId: 'tc_1', content: 'xx\n[truncated to 2 characters]', status: 'completed' },
      { role: 'tool', toolCallId: 'tc_2', content: 'The call has no recorded result.', status: 'unknown' },
    ]);
  });
});
