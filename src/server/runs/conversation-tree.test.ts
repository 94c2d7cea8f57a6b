import { describe, expect, it } from 'vitest';
import type { SnapshotMessage } from '../../core/protocol.ts';
import type { StoredTurnLink } from '../storage/storage-port.ts';
import { branchThrough, readConversationTree, versionsAfter, withVersions } from './conversation-tree.ts';

/** The link of run `run_<n>` of session ses_1, whose turn is `u<n>` then `a<n>`, following `parent` (undefined: made before branches). */
function storedRun(
  n: number,
  parent: string | null | undefined,
  extra: { replaces?: string; live?: boolean } = {},
): StoredTurnLink {
  return {
    runId: `run_${n}`,
    userMessageId: `u${n}`,
    parentMessageId: parent,
    ...(extra.replaces === undefined ? {} : { replacesRunId: extra.replaces }),
    lastMessageId: extra.live ? null : `a${n}`,
  };
}

function storageOf(links: StoredTurnLink[]) {
  return { listTurnLinks: async (sessionId: string) => (sessionId === 'ses_1' ? links : []) };
}

describe('the conversation tree', () => {
  // run_1 → run_2 → run_3; run_4 regenerates run_2 (after a1); run_5 follows run_4; run_6 edits run_1 (start over).
  const runs = [
    storedRun(1, null),
    storedRun(2, 'a1'),
    storedRun(3, 'a2'),
    storedRun(4, 'a1'),
    storedRun(5, 'a4'),
    storedRun(6, null),
  ];

  it('reads each run as a turn under the message it follows', async () => {
    const turns = await readConversationTree(storageOf(runs), 'ses_1');
    expect(turns.map((turn) => [turn.runId, turn.parentMessageId, turn.lastMessageId])).toEqual([
      ['run_1', null, 'a1'],
      ['run_2', 'a1', 'a2'],
      ['run_3', 'a2', 'a3'],
      ['run_4', 'a1', 'a4'],
      ['run_5', 'a4', 'a5'],
      ['run_6', null, 'a6'],
    ]);
    expect(versionsAfter(turns, 'a1')).toEqual(['u2', 'u4']);
    expect(versionsAfter(turns, null)).toEqual(['u1', 'u6']);
  });

  it('goes through a turn down to the turn made last below it', async () => {
    const turns = await readConversationTree(storageOf(runs), 'ses_1');
    expect(branchThrough(turns, 'u2')).toEqual(['run_1', 'run_2', 'run_3']);
    expect(branchThrough(turns, 'u4')).toEqual(['run_1', 'run_4', 'run_5']);
    // Through the first turn: the last made below it is run_5.
    expect(branchThrough(turns, 'u1')).toEqual(['run_1', 'run_4', 'run_5']);
    expect(branchThrough(turns, 'u6')).toEqual(['run_6']);
    expect(branchThrough(turns, 'a2')).toBeNull();
  });

  it('leaves out a run a retry answered again, and lets runs made before branches follow the one before', async () => {
    const turns = await readConversationTree(
      storageOf([storedRun(1, undefined), storedRun(2, undefined), storedRun(3, 'a1', { replaces: 'run_2' })]),
      'ses_1',
    );
    expect(turns.map((turn) => [turn.runId, turn.parentMessageId])).toEqual([
      ['run_1', null],
      ['run_3', 'a1'],
    ]);
    const live = await readConversationTree(
      storageOf([storedRun(1, null), storedRun(2, 'a1', { live: true })]),
      'ses_1',
    );
    expect(live.at(-1)).toEqual({ runId: 'run_2', userMessageId: 'u2', parentMessageId: 'a1', lastMessageId: null });
  });

  it('marks the user messages of turns with versions, and only those', async () => {
    const turns = await readConversationTree(storageOf(runs), 'ses_1');
    const page: SnapshotMessage[] = [
      { messageId: 'a4', role: 'assistant', content: '', status: 'complete', runId: 'run_4' },
      { messageId: 'u4', role: 'user', content: '', status: 'complete', runId: 'run_4' },
      { messageId: 'u5', role: 'user', content: '', status: 'complete', runId: 'run_5' },
    ];
    expect(withVersions(page, turns).map((message) => message.branchMessageIds)).toEqual([
      undefined,
      ['u2', 'u4'],
      undefined,
    ]);
  });
});
