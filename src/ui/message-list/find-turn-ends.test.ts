import { describe, expect, it } from 'vitest';
import type { SnapshotToolCall } from '../../core/index.ts';
import { createMessage } from '../test-support/mount-agent-chat.ts';
import { findTurnEnds } from './find-turn-ends.ts';

describe('findTurnEnds', () => {
  it("picks each run's last answer, never a lead-in before its tool call, reasoning or a user's message", () => {
    const messages = [
      createMessage({ messageId: 'u1', role: 'user', runId: 'run-1' }),
      createMessage({ messageId: 'a1', runId: 'run-1' }),
      createMessage({ messageId: 'a2', runId: 'run-1' }),
      createMessage({ messageId: 'r1', role: 'reasoning', runId: 'run-1' }),
      createMessage({ messageId: 'u2', role: 'user', runId: 'run-2' }),
      createMessage({ messageId: 'b1', runId: 'run-2' }),
    ];
    expect([...findTurnEnds(messages)]).toEqual(['a2', 'b1']);
  });

  it('never picks a lead-in whose tool call still runs, before the run has its final answer', () => {
    const messages = [
      createMessage({ messageId: 'u1', role: 'user', runId: 'run-1' }),
      createMessage({ messageId: 'a1', runId: 'run-1' }),
    ];
    const toolCall: SnapshotToolCall = {
      toolCallId: 't1',
      name: 'drafts.list',
      status: 'running',
      parentMessageId: 'a1',
    };
    expect([...findTurnEnds(messages, [toolCall])]).toEqual([]);
    const answered = [...messages, createMessage({ messageId: 'a2', runId: 'run-1' })];
    expect([...findTurnEnds(answered, [{ ...toolCall, status: 'completed' }])]).toEqual(['a2']);
  });
});
