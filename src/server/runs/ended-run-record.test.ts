import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import { fail } from '../http/problem-error.ts';
import { EndedRunRecord } from './ended-run-record.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import { createFixtureRun } from '../storage/test-support/storage-fixtures.ts';
import { RunClosedError } from './run-handle.ts';
import { createRunRecord } from './run-record.ts';

async function endedRun() {
  let next = 0;
  const storage = createMemoryStorage();
  const { started } = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
  const live = createRunRecord({
    runId: 'run_1',
    sessionId: 'ses_1',
    storage,
    events: [started],
    clock: createFakeClock(1_000),
    ids: (prefix) => `${prefix}_${(next += 1)}`,
    onTerminal: () => undefined,
  });
  await live.append('INTERRUPT_REQUESTED', { interrupt: { id: 'int_1', reason: 'confirmation' } });
  await live.append('INTERRUPT_RESOLVED', { interruptId: 'int_1', status: 'resolved', resolvedBy: 'user' });
  await live.append('RUN_FINISHED', { outcome: { type: 'success' } });
  return live;
}

describe('compacting an ended run record', () => {
  it('keeps a live run as it is', async () => {
    const live = createRunRecord({
      runId: 'run_2',
      sessionId: 'ses_1',
      storage: createMemoryStorage(),
      clock: createFakeClock(0),
      ids: (prefix) => `${prefix}_x`,
      onTerminal: () => undefined,
    });
    expect(live.compact()).toBe(live);
  });

  it('answers as the live record did: snapshot, resolution seqs, closed writes, settled waits', async () => {
    const live = await endedRun();
    const ended = live.compact();
    expect(ended).toBeInstanceOf(EndedRunRecord);
    expect([ended.runId, ended.sessionId, ended.isTerminal()]).toEqual(['run_1', 'ses_1', true]);
    expect(ended.snapshot()).toBe(live.snapshot());
    expect([ended.resolutionSeq('int_1'), ended.resolutionSeq('int_other')]).toEqual([3, undefined]);
    await expect(ended.append('NOTICE', { code: 'x', message: 'y', level: 'info' })).rejects.toEqual(
      new RunClosedError('run_1'),
    );
    let seenStatus: string | null = null;
    expect(
      await ended.transact((s) => {
        seenStatus = s.status;
        return [{ type: 'NOTICE', data: { code: 'x', message: 'y', level: 'info' } }];
      }),
    ).toEqual([]);
    expect(seenStatus).toBe('completed');
    await expect(ended.transact(() => fail({ code: 'RUN_NOT_ACTIVE', detail: 'ended' }))).rejects.toMatchObject({
      status: 409,
    });
    expect(await ended.waitFor((s) => s.status === 'completed')).toBe(live.snapshot());
    const controller = new AbortController();
    const never = ended.waitFor((s) => s.status === 'running', controller.signal);
    controller.abort(new Error('gone'));
    await expect(never).rejects.toThrow('gone');
  });
});
