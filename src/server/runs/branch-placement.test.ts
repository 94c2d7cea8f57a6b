import { describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../../core/protocol.ts';
import { placeTurn } from './branch-placement.ts';

const message = (messageId: string, runId: string, role: SnapshotMessage['role'] = 'assistant'): SnapshotMessage => ({
  messageId,
  role,
  content: messageId,
  status: 'complete',
  runId,
});

// Three turns on the branch shown: run_1 (u1, a1), run_2 (u2, r2 reasoning, a2), run_3 (u3, a3).
const shown = [
  message('u1', 'run_1', 'user'),
  message('a1', 'run_1'),
  message('u2', 'run_2', 'user'),
  message('r2', 'run_2', 'reasoning'),
  message('a2', 'run_2'),
  message('u3', 'run_3', 'user'),
  message('a3', 'run_3'),
];

describe('placeTurn', () => {
  it('continues after the last message when no parent is named', () => {
    expect(placeTurn(shown, undefined)).toEqual({ parentMessageId: 'a3', leavingRunIds: [] });
    expect(placeTurn([], undefined)).toEqual({ parentMessageId: null, leavingRunIds: [] });
  });

  it('branches after an earlier turn: the turns after it leave the branch shown', () => {
    expect(placeTurn(shown, 'a1')).toEqual({ parentMessageId: 'a1', leavingRunIds: ['run_2', 'run_3'] });
    expect(placeTurn(shown, 'a3')).toEqual({ parentMessageId: 'a3', leavingRunIds: [] });
  });

  it('starts over with null: every turn leaves', () => {
    expect(placeTurn(shown, null)).toEqual({ parentMessageId: null, leavingRunIds: ['run_1', 'run_2', 'run_3'] });
  });

  it('refuses a message inside a turn, and one not on the branch shown', () => {
    expect(placeTurn(shown, 'u2')).toBeNull();
    expect(placeTurn(shown, 'r2')).toBeNull();
    expect(placeTurn(shown, 'msg_elsewhere')).toBeNull();
  });
});
