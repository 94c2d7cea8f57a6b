import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_EPOCH_MS } from '../../../core/state/test-support/events.ts';
import { EventLogConflictError } from '../../runs/event-log.ts';
import { RunClosedError } from '../../runs/run-handle.ts';
import type { AgentStorage } from '../storage-port.ts';
import type { FixtureRun } from './storage-fixtures.ts';
import { seedSession } from './seed-session.ts';
import { createFixtureRun, createRunCommand, finishFixtureRun, FIXTURE_VERSION } from './storage-fixtures.ts';

/** What a contract run needs from an implementation: a fresh store, and a way to reopen it if durable. */
export interface StorageUnderTest {
  storage: AgentStorage;
  /** Closes the store and opens the same data again (durable implementations only). */
  reopen?: () => Promise<AgentStorage>;
  /** Removes whatever the store left behind (a temp folder). */
  dispose?: () => Promise<void>;
}

const T0 = EVENT_EPOCH_MS;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RESPONSE = { status: 201, body: { runId: 'run_1' }, headers: { Location: '/v1/runs/run_1' } };

/**
 * The storage contract (docs/server.md, "Storage"): every {@link AgentStorage} implementation runs
 * this same suite with its own factory, so the server behaves the same on each.
 */
export function describeStorageContract(
  name: string,
  open: () => Promise<StorageUnderTest>,
  traits: { isDurable: boolean },
): void {
  describe(`storage contract: ${name}`, () => {
    let subject: StorageUnderTest;
    let storage: AgentStorage;
    beforeEach(async () => {
      subject = await open();
      storage = subject.storage;
    });
    afterEach(async () => {
      await storage.close();
      await subject.dispose?.();
    });

    /** Creates run `runId` (asking `q <runId>`) and ends it with the answer `a <runId>`. */
    const answered = async (
      runId: string,
      options: { sessionId?: string; isNewSession?: boolean; leavesHistory?: readonly string[] } = {},
    ): Promise<void> => {
      const { sessionId = 'ses_1', isNewSession = false, leavesHistory } = options;
      const run = await createFixtureRun(storage, {
        runId,
        sessionId,
        isNewSession,
        text: `q ${runId}`,
        ...(leavesHistory === undefined ? {} : { leavesHistory }),
      });
      await finishFixtureRun(storage, run, `a ${runId}`);
    };
    /** The messages `answered` settles for each of `runIds`, oldest first. */
    const asked = (...runIds: string[]): string[] => runIds.flatMap((runId) => [`q ${runId}`, `a ${runId}`]);
    /** The session's history, oldest first, as message contents. */
    const historyOf = async (sessionId = 'ses_1'): Promise<unknown[] | undefined> =>
      (await storage.listMessages(sessionId, {}))?.items.map((message) => message.content).reverse();
    const messagesWithIds = (...messageIds: string[]) =>
      messageIds.map((messageId) => expect.objectContaining({ messageId }));

    it('commits the session, the run, RUN_STARTED, the lease and the idempotency record together', async () => {
      await storage.beginIdempotency({
        recordId: 'key_1',
        subjectId: 'alice',
        fingerprint: 'fp_1',
        token: 'tok_1',
        now: T0,
        lockedUntil: T0 + 60_000,
        expiresAt: T0 + 86_400_000,
      });
      const { command, run } = createRunCommand({
        runId: 'run_1',
        sessionId: 'ses_1',
        isNewSession: true,
        text: 'Hi there',
        idempotency: {
          recordId: 'key_1',
          subjectId: 'alice',
          token: 'tok_1',
          response: RESPONSE,
          expiresAt: T0 + 86_400_000,
        },
      });
      const outcome = await storage.createRun(command);
      expect(outcome).toEqual({
        kind: 'created',
        session: expect.objectContaining({
          sessionId: 'ses_1',
          activeRunId: 'run_1',
          lastRunId: 'run_1',
          title: 'Hi there',
        }),
      });
      expect(await storage.getRun('run_1')).toEqual({
        ...command.run,
        firstSeq: 1,
        lastSeq: 1,
        endedAt: null,
        finalSnapshot: null,
        isCompacted: false,
      });
      expect(await storage.readEvents('run_1', 0)).toEqual([run.started]);
      expect(await storage.listSessionRunIds('ses_1')).toEqual(['run_1']);
      expect(await storage.listExpiredLeases(T0 + 200 + 10_000, 10)).toEqual([
        { runId: 'run_1', owner: 'proc_a', expiresAt: T0 + 100 + 10_000 },
      ]);
      const again = await storage.beginIdempotency({
        recordId: 'key_1',
        subjectId: 'alice',
        fingerprint: 'fp_1',
        token: 'tok_2',
        now: T0 + 1,
        lockedUntil: T0 + 60_001,
        expiresAt: T0 + 86_400_001,
      });
      expect(again).toEqual({ kind: 'replay', response: RESPONSE });
    });

    it('commits nothing when a create is refused', async () => {
      await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const refused = async (options: Parameters<typeof createRunCommand>[0]) =>
        storage.createRun(createRunCommand(options).command);
      expect(await refused({ runId: 'run_2', sessionId: 'ses_1', isNewSession: false })).toEqual({
        kind: 'run_active',
        activeRunId: 'run_1',
      });
      expect(await refused({ runId: 'run_3', sessionId: 'ses_1', isNewSession: false, subjectId: 'mallory' })).toEqual({
        kind: 'session_not_found',
      });
      expect(await refused({ runId: 'run_4', sessionId: 'ses_nope', isNewSession: false })).toEqual({
        kind: 'session_not_found',
      });
      expect(
        await refused({
          runId: 'run_5',
          sessionId: 'ses_5',
          isNewSession: true,
          idempotency: {
            recordId: 'key_never_begun',
            subjectId: 'alice',
            token: 'tok',
            response: RESPONSE,
            expiresAt: T0 + 1000,
          },
        }),
      ).toEqual({ kind: 'idempotency_lost' });
      for (const runId of ['run_2', 'run_3', 'run_4', 'run_5']) {
        expect(await storage.getRun(runId)).toBeNull();
        expect(await storage.readEvents(runId, 0)).toEqual([]);
      }
      expect(await storage.getSession('ses_5')).toBeNull();
      expect(await storage.listSessionRunIds('ses_1')).toEqual(['run_1']);
    });

    it('refuses a create on a session pinned to another agent version', async () => {
      await finishFixtureRun(
        storage,
        await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true }),
        'Done.',
      );
      const { command } = createRunCommand({ runId: 'run_2', sessionId: 'ses_1', isNewSession: false });
      const outcome = await storage.createRun({
        ...command,
        started: {
          ...command.started,
          data: { ...command.started.data, agent: { agentId: 'agt_test', versionId: 'agv_other' } },
        },
      });
      expect(outcome).toEqual({ kind: 'version_mismatch', agentVersionId: FIXTURE_VERSION });
      expect(await storage.getRun('run_2')).toBeNull();
    });

    it('gives one run to concurrent creates in one session', async () => {
      await finishFixtureRun(
        storage,
        await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true }),
        'Done.',
      );
      const outcomes = await Promise.all(
        ['run_a', 'run_b', 'run_c'].map((runId) =>
          storage.createRun(createRunCommand({ runId, sessionId: 'ses_1', isNewSession: false }).command),
        ),
      );
      const created = outcomes.filter((o) => o.kind === 'created');
      expect(created).toHaveLength(1);
      const winner = (await storage.getSession('ses_1'))?.activeRunId as string;
      expect(outcomes.filter((o) => o.kind === 'run_active')).toEqual([
        { kind: 'run_active', activeRunId: winner },
        { kind: 'run_active', activeRunId: winner },
      ]);
      expect(await storage.listSessionRunIds('ses_1')).toEqual(['run_1', winner]);
      expect(await storage.counts()).toEqual({ sessions: 1, runs: 2 });
    });

    it('fences appends by the expected last seq and reads from a cursor', async () => {
      const run = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const running = run.events.next('RUN_STATUS_CHANGED', { status: 'running' });
      await storage.appendEvents('run_1', 1, [running]);
      const stale = storage.appendEvents('run_1', 1, [run.events.at(2, 'RUN_STATUS_CHANGED', { status: 'running' })]);
      await expect(stale).rejects.toEqual(new EventLogConflictError('run_1', 1, 2));
      const gap = storage.appendEvents('run_1', 2, [run.events.at(4, 'STEP_STARTED', { stepName: 'round:1' })]);
      await expect(gap).rejects.toBeInstanceOf(RangeError);
      const step = run.events.next('STEP_STARTED', { stepName: 'round:1' });
      const message = run.events.next('TEXT_MESSAGE_START', { messageId: 'msg_a', role: 'assistant' });
      await storage.appendEvents('run_1', 2, [step, message]);
      expect((await storage.readEvents('run_1', 0)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(await storage.readEvents('run_1', 2)).toEqual([step, message]);
      expect(await storage.readEvents('run_1', 1, 2)).toEqual([running, step]);
      expect(await storage.readEvents('run_1', 4)).toEqual([]);
      expect((await storage.getRun('run_1'))?.lastSeq).toBe(4);
    });

    it('lets the first of two racing decisions win and refuses the other', async () => {
      const run = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const resolution = (decision: 'allow' | 'deny') =>
        run.events.at(2, 'INTERRUPT_RESOLVED', {
          interruptId: 'int_1',
          status: 'resolved',
          decision,
          resolvedBy: 'user',
        });
      const results = await Promise.allSettled([
        storage.appendEvents('run_1', 1, [resolution('allow')]),
        storage.appendEvents('run_1', 1, [resolution('deny')]),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      expect((results[1] as PromiseRejectedResult).reason).toEqual(new EventLogConflictError('run_1', 1, 2));
      expect(await storage.readEvents('run_1', 1)).toEqual([resolution('allow')]);
    });

    it('ends a run with its final snapshot, frees the session and the lease, and refuses later appends', async () => {
      const run = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const finalSnapshot = await finishFixtureRun(storage, run, 'All done.');
      const stored = await storage.getRun('run_1');
      expect(stored).toEqual(
        expect.objectContaining({ lastSeq: 5, endedAt: T0 + 500, finalSnapshot, isCompacted: false }),
      );
      expect(finalSnapshot.messages.map((m) => m.content)).toEqual(['Hello from run_1', 'All done.']);
      expect(await storage.getSession('ses_1')).toEqual(
        expect.objectContaining({ activeRunId: null, lastRunId: 'run_1', updatedAt: T0 + 500 }),
      );
      expect(await storage.listExpiredLeases(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
      const late = storage.appendEvents('run_1', 5, [
        run.events.at(6, 'NOTICE', { level: 'info', code: 'X', message: 'late' }),
      ]);
      await expect(late).rejects.toBeInstanceOf(RunClosedError);
      const unsnapshotted = await createFixtureRun(storage, { runId: 'run_2', sessionId: 'ses_2', isNewSession: true });
      const bare = storage.appendEvents('run_2', 1, [
        unsnapshotted.events.next('RUN_FINISHED', { outcome: { type: 'success' } }),
      ]);
      await expect(bare).rejects.toBeInstanceOf(RangeError);
      expect((await storage.getRun('run_2'))?.endedAt).toBeNull();
    });

    it('rings the doorbell with the seq each committed append reached, and stops at unsubscribe', async () => {
      const run = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      // A ring may come later than the append (another process's store) and a subscription may ring
      // once when it starts, so readers rely on the seq a ring carries, never on counting rings.
      const first: number[] = [];
      const unsubscribeFirst = storage.subscribe('run_1', (lastSeq) => first.push(lastSeq));
      await storage.appendEvents('run_1', 1, [run.events.next('RUN_STATUS_CHANGED', { status: 'running' })]);
      await vi.waitFor(() => expect(first).toContain(2));
      await expect(
        storage.appendEvents('run_1', 1, [run.events.at(2, 'STEP_STARTED', { stepName: 'x' })]),
      ).rejects.toBeInstanceOf(EventLogConflictError);
      await storage.appendEvents('run_1', 2, [run.events.next('STEP_STARTED', { stepName: 'round:1' })]);
      await vi.waitFor(() => expect(first).toContain(3));
      expect(first.every((seq, index) => seq <= 3 && seq >= (first[index - 1] ?? 0))).toBe(true);

      const second: number[] = [];
      const unsubscribeSecond = storage.subscribe('run_1', (lastSeq) => second.push(lastSeq));
      unsubscribeFirst();
      await storage.appendEvents('run_1', 3, [run.events.next('STEP_FINISHED', { stepName: 'round:1' })]);
      await vi.waitFor(() => expect(second).toContain(4));
      expect(first).not.toContain(4);
      unsubscribeSecond();
    });

    it('pages settled history newest first', async () => {
      const first = await createFixtureRun(storage, {
        runId: 'run_1',
        sessionId: 'ses_1',
        isNewSession: true,
        text: 'one',
      });
      await finishFixtureRun(storage, first, 'answer one');
      const second = await createFixtureRun(storage, {
        runId: 'run_2',
        sessionId: 'ses_1',
        isNewSession: false,
        text: 'two',
      });
      expect((await storage.listMessages('ses_1', {}))?.items.map((m) => m.content)).toEqual(['answer one', 'one']);
      await finishFixtureRun(storage, second, 'answer two');
      const page1 = await storage.listMessages('ses_1', { limit: 3 });
      expect(page1?.items.map((m) => m.content)).toEqual(['answer two', 'two', 'answer one']);
      expect(page1?.next).toBe('msg_answer_run_1');
      const page2 = await storage.listMessages('ses_1', { before: 'msg_answer_run_1', limit: 3 });
      expect(page2).toEqual({
        items: [expect.objectContaining({ messageId: 'msg_user_run_1', content: 'one' })],
        next: null,
      });
      expect(await storage.listMessages('ses_1', { before: 'msg_unknown', limit: 3 })).toBeNull();
      expect(await storage.listMessages('ses_other', {})).toEqual({ items: [], next: null });
    });

    it('pages a long history back to its start, newest first, each message once', async () => {
      const ids = await seedSession(storage, {
        sessionId: 'ses_long',
        subjectId: 'alice',
        agentVersionId: FIXTURE_VERSION,
        runs: 20,
        userTextOf: (index) => `Question ${index + 1}`,
      });
      const pages: string[][] = [];
      let before: string | null | undefined;
      do {
        const page = await storage.listMessages('ses_long', { limit: 7, ...(before ? { before } : {}) });
        pages.push(page?.items.map((message) => message.messageId) ?? []);
        before = page?.next;
      } while (before && pages.length < 10);
      expect(pages.map((page) => page.length)).toEqual([7, 7, 7, 7, 7, 5]);
      expect(pages.flat()).toEqual(ids.slice().reverse());
      expect(await storage.listMessages('ses_long', { before: ids[5] as string, limit: 7 })).toEqual({
        items: ids
          .slice(0, 5)
          .reverse()
          .map((messageId) => expect.objectContaining({ messageId })),
        next: null,
      });
      // A cursor of another session is not a message of this one.
      const other = await createFixtureRun(storage, { runId: 'run_x', sessionId: 'ses_x', isNewSession: true });
      await finishFixtureRun(storage, other, 'x');
      expect(await storage.listMessages('ses_long', { before: 'msg_user_run_x', limit: 7 })).toBeNull();
    });

    it('lists the tool calls of ended runs only, oldest run first, with their results and runs', async () => {
      const first = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      await finishFixtureRun(storage, first, 'shipped', { toolCallId: 'tc_1' });
      const second = await createFixtureRun(storage, { runId: 'run_2', sessionId: 'ses_1', isNewSession: false });
      await storage.appendEvents('run_2', 1, [
        second.events.next('TOOL_CALL_START', { toolCallId: 'tc_live', toolCallName: 'orders.lookup' }),
      ]);
      expect(await storage.listSettledToolCalls('ses_1')).toEqual([
        {
          runId: 'run_1',
          toolCallId: 'tc_1',
          name: 'orders.lookup',
          seq: 2,
          args: { orderId: 'A-1' },
          argsDigest: 'sha256:x',
          status: 'completed',
          result: { messageId: 'msg_result_tc_1', content: '{"status":"shipped"}' },
        },
      ]);
      expect(await storage.listSettledToolCalls('ses_other')).toEqual([]);
    });

    it('lists a subject’s sessions by latest activity, ties by id, with a keyset cursor', async () => {
      const runs = [];
      for (const [index, subjectId] of ['alice', 'bob', 'alice', 'alice'].entries()) {
        runs.push(
          await createFixtureRun(storage, {
            runId: `run_${index}`,
            sessionId: `ses_${index}`,
            subjectId,
            isNewSession: true,
          }),
        );
      }
      const page1 = await storage.listSessions('alice', { limit: 2 });
      expect(page1?.items.map((s) => s.sessionId)).toEqual(['ses_3', 'ses_2']);
      expect(page1?.next).toEqual(expect.any(String));
      const after = page1?.next ?? '';
      expect(await storage.listSessions('alice', { after, limit: 2 })).toEqual({
        items: [expect.objectContaining({ sessionId: 'ses_0', subjectId: 'alice' })],
        next: null,
      });
      // ses_0's run ends (new activity): it leads a fresh listing, and a client paging from the old
      // cursor sees neither it again nor a shifted page.
      await finishFixtureRun(storage, runs[0] as FixtureRun, 'done');
      expect((await storage.listSessions('alice', { limit: 5 }))?.items.map((s) => s.sessionId)).toEqual([
        'ses_0',
        'ses_3',
        'ses_2',
      ]);
      expect(await storage.listSessions('alice', { after, limit: 2 })).toEqual({ items: [], next: null });
      expect((await storage.listSessions('bob', { limit: 5 }))?.items.map((s) => s.sessionId)).toEqual(['ses_1']);
      expect(await storage.listSessions('alice', { after: 'ses_2', limit: 2 })).toBeNull();
      expect(await storage.listSessions('alice', { after: '12.ses 2', limit: 2 })).toBeNull();
    });

    it('counts a session’s settled user and assistant messages', async () => {
      const first = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      expect(await storage.countSessionMessages('ses_1')).toBe(0);
      await finishFixtureRun(storage, first, 'one');
      expect(await storage.countSessionMessages('ses_1')).toBe(2);
      const second = await createFixtureRun(storage, { runId: 'run_2', sessionId: 'ses_1', isNewSession: false });
      expect(await storage.countSessionMessages('ses_1')).toBe(2);
      await finishFixtureRun(storage, second, 'two');
      expect(await storage.countSessionMessages('ses_1')).toBe(4);
      expect(await storage.countSessionMessages('ses_unknown')).toBe(0);
    });

    it('takes a run answered again out of the session history with the retry’s create, only the latest run', async () => {
      const failed = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      await finishFixtureRun(storage, failed, 'half an answer');
      const retry = await createFixtureRun(storage, {
        runId: 'run_2',
        sessionId: 'ses_1',
        isNewSession: false,
        replacesRunId: 'run_1',
      });
      expect(await storage.listMessages('ses_1', {})).toEqual({ items: [], next: null });
      expect(await storage.countSessionMessages('ses_1')).toBe(0);
      expect(await storage.listMessages('ses_1', { before: 'msg_answer_run_1' })).toBeNull();
      // The replaced run keeps its record and snapshot.
      expect((await storage.getRun('run_1'))?.finalSnapshot?.messages.map((m) => m.content)).toEqual([
        'Hello from run_1',
        'half an answer',
      ]);
      await finishFixtureRun(storage, retry, 'the answer');
      expect((await storage.listMessages('ses_1', {}))?.items.map((m) => m.content)).toEqual([
        'the answer',
        'Hello from run_2',
      ]);
      const stale = createRunCommand({
        runId: 'run_3',
        sessionId: 'ses_1',
        isNewSession: false,
        replacesRunId: 'run_1',
      });
      expect(await storage.createRun(stale.command)).toEqual({ kind: 'not_latest_run' });
      expect(await storage.getRun('run_3')).toBeNull();
      expect((await storage.getSession('ses_1'))?.lastRunId).toBe('run_2');
      expect(await storage.countSessionMessages('ses_1')).toBe(2);
    });

    it('takes the runs a branch is made beside out of the history with its create, nothing when refused', async () => {
      await answered('run_1', { isNewSession: true });
      await answered('run_2');
      await answered('run_3');
      await answered('run_x', { sessionId: 'ses_2', isNewSession: true });
      const branch = (extra: Partial<Parameters<typeof createRunCommand>[0]> = {}) =>
        createRunCommand({
          runId: 'run_4',
          sessionId: 'ses_1',
          isNewSession: false,
          text: 'q run_4',
          leavesHistory: ['run_2', 'run_3', 'run_x', 'run_unknown'],
          ...extra,
        });
      const mismatched = branch().command;
      expect(
        await storage.createRun({
          ...mismatched,
          started: {
            ...mismatched.started,
            data: { ...mismatched.started.data, agent: { agentId: 'agt_test', versionId: 'agv_other' } },
          },
        }),
      ).toEqual({ kind: 'version_mismatch', agentVersionId: FIXTURE_VERSION });
      const lost = { recordId: 'key_never_begun', subjectId: 'alice', token: 'tok', response: RESPONSE, expiresAt: T0 };
      expect(await storage.createRun(branch({ idempotency: lost }).command)).toEqual({ kind: 'idempotency_lost' });
      expect(await storage.createRun(branch({ subjectId: 'mallory' }).command)).toEqual({
        kind: 'session_not_found',
      });
      expect(await historyOf()).toEqual(asked('run_1', 'run_2', 'run_3'));
      expect(await storage.countSessionMessages('ses_1')).toBe(6);

      const made = branch();
      expect(await storage.createRun(made.command)).toMatchObject({ kind: 'created' });
      expect(await historyOf()).toEqual(asked('run_1'));
      expect(await storage.countSessionMessages('ses_1')).toBe(2);
      expect(await storage.listMessages('ses_1', { before: 'msg_answer_run_2' })).toBeNull();
      expect(await storage.listMessages('ses_1', { before: 'msg_answer_run_1' })).toEqual({
        items: messagesWithIds('msg_user_run_1'),
        next: null,
      });
      // Another session's run is not touched; the runs that left keep their records and snapshots.
      expect(await historyOf('ses_2')).toEqual(asked('run_x'));
      expect((await storage.getRun('run_3'))?.finalSnapshot?.messages.map((m) => m.content)).toEqual(asked('run_3'));
      expect(await storage.listSessionRunIds('ses_1')).toEqual(['run_1', 'run_2', 'run_3', 'run_4']);
      const whileLive = createRunCommand({
        runId: 'run_5',
        sessionId: 'ses_1',
        isNewSession: false,
        leavesHistory: ['run_1'],
      });
      expect(await storage.createRun(whileLive.command)).toEqual({ kind: 'run_active', activeRunId: 'run_4' });
      expect(await historyOf()).toEqual(asked('run_1'));

      await finishFixtureRun(storage, made.run, 'a run_4');
      expect(await historyOf()).toEqual(asked('run_1', 'run_4'));
      expect(await storage.listMessages('ses_1', { limit: 3 })).toEqual({
        items: messagesWithIds('msg_answer_run_4', 'msg_user_run_4', 'msg_answer_run_1'),
        next: 'msg_answer_run_1',
      });
      expect(await storage.countSessionMessages('ses_1')).toBe(4);
    });

    it('shows another branch: its messages come back at the place they had, in one step, idempotently', async () => {
      await answered('run_1', { isNewSession: true });
      await answered('run_2');
      await answered('run_3');
      // run_4 is a branch beside run_2 (an edit of its question); run_5 follows it.
      await answered('run_4', { leavesHistory: ['run_2', 'run_3'] });
      await answered('run_5');
      const session = await storage.getSession('ses_1');
      expect(await historyOf()).toEqual(asked('run_1', 'run_4', 'run_5'));
      const show = (leave: string[], enter: string[]) =>
        storage.showBranch({ sessionId: 'ses_1', subjectId: 'alice', leave, enter });

      expect(await show(['run_4', 'run_5'], ['run_2', 'run_3'])).toEqual({ kind: 'shown', session });
      expect(await historyOf()).toEqual(asked('run_1', 'run_2', 'run_3'));
      expect(await storage.countSessionMessages('ses_1')).toBe(6);
      expect(await storage.listMessages('ses_1', { limit: 4 })).toEqual({
        items: messagesWithIds('msg_answer_run_3', 'msg_user_run_3', 'msg_answer_run_2', 'msg_user_run_2'),
        next: 'msg_user_run_2',
      });
      expect(await storage.listMessages('ses_1', { before: 'msg_user_run_2', limit: 4 })).toEqual({
        items: messagesWithIds('msg_answer_run_1', 'msg_user_run_1'),
        next: null,
      });
      expect(await storage.listMessages('ses_1', { before: 'msg_answer_run_4' })).toBeNull();

      // Back, and the same again: nothing moves twice.
      for (const _ of [1, 2]) {
        expect(await show(['run_2', 'run_3'], ['run_4', 'run_5'])).toEqual({ kind: 'shown', session });
        expect(await historyOf()).toEqual(asked('run_1', 'run_4', 'run_5'));
      }
      // A run that comes back beside later ones takes its place among them (settle order), not the end.
      expect((await show([], ['run_2'])).kind).toBe('shown');
      expect(await historyOf()).toEqual(asked('run_1', 'run_2', 'run_4', 'run_5'));
      expect(await storage.listMessages('ses_1', { before: 'msg_user_run_4', limit: 1 })).toEqual({
        items: messagesWithIds('msg_answer_run_2'),
        next: 'msg_answer_run_2',
      });
      // A run named in both lists ends in the history.
      expect((await show(['run_2'], ['run_2'])).kind).toBe('shown');
      expect(await historyOf()).toEqual(asked('run_1', 'run_2', 'run_4', 'run_5'));
      // Neither the activity time nor the latest run moved.
      expect(await storage.getSession('ses_1')).toEqual(session);

      if (subject.reopen === undefined) return;
      storage = await subject.reopen();
      expect(await historyOf()).toEqual(asked('run_1', 'run_2', 'run_4', 'run_5'));
      expect((await show(['run_2', 'run_4', 'run_5'], ['run_3'])).kind).toBe('shown');
      expect(await historyOf()).toEqual(asked('run_1', 'run_3'));
      expect(await storage.countSessionMessages('ses_1')).toBe(4);
    });

    it('shows no branch while a run is active nor of another’s session, and ignores runs not of it', async () => {
      await answered('run_1', { isNewSession: true });
      await answered('run_2', { leavesHistory: ['run_1'] });
      await answered('run_x', { sessionId: 'ses_2', isNewSession: true });
      const live = await createFixtureRun(storage, { runId: 'run_3', sessionId: 'ses_1', isNewSession: false });
      const request = { sessionId: 'ses_1', subjectId: 'alice', leave: ['run_2'], enter: ['run_1'] };
      expect(await storage.showBranch(request)).toEqual({ kind: 'run_active', activeRunId: 'run_3' });
      expect(await storage.showBranch({ ...request, subjectId: 'bob' })).toEqual({ kind: 'not_found' });
      expect(await storage.showBranch({ ...request, sessionId: 'ses_nope' })).toEqual({ kind: 'not_found' });
      expect(await historyOf()).toEqual(asked('run_2'));
      await finishFixtureRun(storage, live, 'a run_3');
      expect(await storage.showBranch({ ...request, subjectId: 'bob' })).toEqual({ kind: 'not_found' });
      expect(await historyOf()).toEqual(['q run_2', 'a run_2', 'Hello from run_3', 'a run_3']);
      const foreign = ['run_x', 'run_unknown'];
      expect(await storage.showBranch({ ...request, leave: foreign, enter: foreign })).toMatchObject({
        kind: 'shown',
      });
      expect(await historyOf('ses_2')).toEqual(asked('run_x'));
      expect(await storage.countSessionMessages('ses_1')).toBe(4);
      // The settled tool calls stay those of every ended run: the engine keeps those of the runs shown.
      expect(await storage.listSettledToolCalls('ses_1')).toEqual([]);
    });

    it('lists the links of a session’s conversation tree, oldest first, in the history or not', async () => {
      const ended = async (runId: string, options: Partial<Parameters<typeof createRunCommand>[0]> = {}) => {
        const run = await createFixtureRun(storage, {
          runId,
          sessionId: 'ses_1',
          isNewSession: false,
          text: `q ${runId}`,
          ...options,
        });
        await finishFixtureRun(storage, run, `a ${runId}`);
      };
      // run_1 was made before branches; run_3 answers run_2 again; run_4 starts over beside run_1
      // and run_3 (which leave the history); run_5 follows run_4 and is live.
      await ended('run_1', { isNewSession: true });
      await ended('run_2', { parentMessageId: 'msg_answer_run_1' });
      await ended('run_3', { parentMessageId: 'msg_answer_run_1', replacesRunId: 'run_2' });
      await ended('run_4', { parentMessageId: null, leavesHistory: ['run_1', 'run_3'] });
      await createFixtureRun(storage, {
        runId: 'run_5',
        sessionId: 'ses_1',
        isNewSession: false,
        parentMessageId: 'msg_answer_run_4',
      });
      await answered('run_x', { sessionId: 'ses_2', isNewSession: true });
      expect(await historyOf()).toEqual(asked('run_4'));
      const link = (runId: string, parentMessageId: string | null | undefined, lastMessageId: string | null) => ({
        runId,
        userMessageId: `msg_user_${runId}`,
        parentMessageId,
        lastMessageId,
      });
      const links = [
        link('run_1', undefined, 'msg_answer_run_1'),
        link('run_2', 'msg_answer_run_1', 'msg_answer_run_2'),
        { ...link('run_3', 'msg_answer_run_1', 'msg_answer_run_3'), replacesRunId: 'run_2' },
        link('run_4', null, 'msg_answer_run_4'),
        link('run_5', 'msg_answer_run_4', null),
      ];
      expect(await storage.listTurnLinks('ses_1')).toStrictEqual(links);
      expect(await storage.listTurnLinks('ses_2')).toStrictEqual([link('run_x', undefined, 'msg_answer_run_x')]);
      expect(await storage.listTurnLinks('ses_unknown')).toEqual([]);
      if (subject.reopen === undefined) return;
      storage = await subject.reopen();
      expect(await storage.listTurnLinks('ses_1')).toStrictEqual(links);
    });

    it('deletes the messages out of the history with their runs and session, by request and by retention', async () => {
      await answered('run_1', { isNewSession: true });
      await answered('run_2', { leavesHistory: ['run_1'] });
      await answered('run_3');
      const touched = { sessionId: 'ses_1', subjectId: 'alice' };
      const caps = { now: T0, sessionIdleTtlMs: DAY, maxSessions: 100, maxRuns: 100, protectActiveSessionsMs: DAY };
      expect(
        await storage.enforceRetention({ ...caps, maxSessionsPerSubject: 100, maxRunsPerSession: 2, touched }),
      ).toEqual({ sessionIds: [], runIds: ['run_1'] });
      // A deleted run does not come back.
      expect(await storage.showBranch({ ...touched, leave: ['run_2'], enter: ['run_1'] })).toMatchObject({
        kind: 'shown',
      });
      expect(await historyOf()).toEqual(asked('run_3'));
      expect(await storage.deleteSession(touched)).toEqual({ kind: 'deleted', runIds: ['run_2', 'run_3'] });
      expect(await storage.listMessages('ses_1', {})).toEqual({ items: [], next: null });
      expect(await storage.countSessionMessages('ses_1')).toBe(0);
      // The same ids made again start with nothing left of them: every run shown.
      await answered('run_2', { isNewSession: true });
      await answered('run_3');
      expect(await historyOf()).toEqual(asked('run_2', 'run_3'));
      await answered('run_4', { leavesHistory: ['run_3'] });
      expect(await historyOf()).toEqual(asked('run_2', 'run_4'));
      const loose = { maxSessionsPerSubject: 100, maxRunsPerSession: 100 };
      expect(await storage.enforceRetention({ ...caps, ...loose, now: T0 + 1500, sessionIdleTtlMs: 1000 })).toEqual({
        sessionIds: ['ses_1'],
        runIds: ['run_2', 'run_3', 'run_4'],
      });
      expect(await storage.counts()).toEqual({ sessions: 0, runs: 0 });
      await answered('run_3', { isNewSession: true });
      expect(await historyOf()).toEqual(asked('run_3'));
      expect(await storage.countSessionMessages('ses_1')).toBe(2);
    });

    it('renames only the subject’s session, and a conditional title only over the expected one', async () => {
      await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true, text: 'Hi there' });
      const before = await storage.getSession('ses_1');
      expect(before?.title).toBe('Hi there');
      const request = { sessionId: 'ses_1', subjectId: 'alice' };
      expect(await storage.updateSessionTitle({ ...request, subjectId: 'bob', title: 'Stolen' })).toEqual({
        kind: 'not_found',
      });
      expect(await storage.updateSessionTitle({ ...request, sessionId: 'ses_none', title: 'x' })).toEqual({
        kind: 'not_found',
      });
      expect(await storage.updateSessionTitle({ ...request, title: 'Suggested', expectedTitle: 'Hi there' })).toEqual({
        kind: 'updated',
        session: { ...before, title: 'Suggested' },
      });
      expect(await storage.updateSessionTitle({ ...request, title: 'Late', expectedTitle: 'Hi there' })).toEqual({
        kind: 'title_changed',
      });
      expect((await storage.updateSessionTitle({ ...request, title: 'Renamed' })).kind).toBe('updated');
      expect(await storage.getSession('ses_1')).toEqual({ ...before, title: 'Renamed' });
    });

    it('deletes a session with its runs, logs and messages, never one with an active run or another’s', async () => {
      const first = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      await finishFixtureRun(storage, first, 'one');
      const second = await createFixtureRun(storage, { runId: 'run_2', sessionId: 'ses_1', isNewSession: false });
      await createFixtureRun(storage, { runId: 'run_3', sessionId: 'ses_kept', isNewSession: true });
      const request = { sessionId: 'ses_1', subjectId: 'alice' };
      expect(await storage.deleteSession(request)).toEqual({ kind: 'run_active', activeRunId: 'run_2' });
      expect(await storage.deleteSession({ ...request, subjectId: 'bob' })).toEqual({ kind: 'not_found' });
      await finishFixtureRun(storage, second, 'two');
      expect(await storage.deleteSession({ ...request, subjectId: 'bob' })).toEqual({ kind: 'not_found' });
      expect(await storage.deleteSession(request)).toEqual({ kind: 'deleted', runIds: ['run_1', 'run_2'] });
      expect(await storage.getSession('ses_1')).toBeNull();
      expect([await storage.getRun('run_1'), await storage.getRun('run_2')]).toEqual([null, null]);
      expect(await storage.readEvents('run_2', 0)).toEqual([]);
      expect(await storage.listMessages('ses_1', {})).toEqual({ items: [], next: null });
      expect(await storage.listSessionRunIds('ses_1')).toEqual([]);
      expect(await storage.countSessionMessages('ses_1')).toBe(0);
      expect(await storage.counts()).toEqual({ sessions: 1, runs: 1 });
      expect(await storage.deleteSession(request)).toEqual({ kind: 'not_found' });
      expect((await storage.listSessions('alice', { limit: 5 }))?.items.map((s) => s.sessionId)).toEqual(['ses_kept']);
    });

    it('inserts an idempotency record only when absent, with lock and TTL expiry', async () => {
      const begin = (token: string, now: number, fingerprint = 'fp') =>
        storage.beginIdempotency({
          recordId: 'key',
          subjectId: 'alice',
          fingerprint,
          token,
          now,
          lockedUntil: now + 1000,
          expiresAt: now + 5000,
        });
      const racing = await Promise.all([begin('tok_a', T0), begin('tok_b', T0), begin('tok_c', T0)]);
      expect(racing.map((o) => o.kind)).toEqual(['started', 'in_use', 'in_use']);
      expect(await begin('tok_d', T0 + 10, 'fp_other')).toEqual({ kind: 'reused' });
      expect(await begin('tok_e', T0 + 1000)).toEqual({ kind: 'started' });
      const completion = { recordId: 'key', subjectId: 'alice', response: RESPONSE, expiresAt: T0 + 6000 };
      expect(await storage.completeIdempotency({ ...completion, token: 'tok_a' })).toBe(false);
      expect(await storage.completeIdempotency({ ...completion, token: 'tok_e' })).toBe(true);
      expect(await begin('tok_f', T0 + 5999)).toEqual({ kind: 'replay', response: RESPONSE });
      expect(await begin('tok_g', T0 + 6000)).toEqual({ kind: 'started' });
      await storage.abandonIdempotency('key', 'tok_wrong', 'alice');
      expect(await begin('tok_h', T0 + 6001)).toEqual({ kind: 'in_use' });
      await storage.abandonIdempotency('key', 'tok_g', 'alice');
      expect(await begin('tok_i', T0 + 6002)).toEqual({ kind: 'started' });
      expect(await storage.deleteExpiredIdempotency(T0 + 6002 + 4999)).toBe(0);
      expect(await storage.deleteExpiredIdempotency(T0 + 6002 + 5000)).toBe(1);
    });

    it('renews a lease for its owner only and lets exactly one process take an expired one', async () => {
      const run = await createFixtureRun(storage, {
        runId: 'run_1',
        sessionId: 'ses_1',
        isNewSession: true,
        leaseExpiresAt: T0 + 1000,
      });
      expect(await storage.renewLease('run_1', 'proc_b', T0 + 2000)).toBe(false);
      expect(await storage.renewLease('run_1', 'proc_a', T0 + 3000)).toBe(true);
      expect(await storage.listExpiredLeases(T0 + 2999, 10)).toEqual([]);
      expect(await storage.takeExpiredLease('run_1', 'proc_b', T0 + 2999, T0 + 9000)).toBe(false);
      expect(await storage.listExpiredLeases(T0 + 3000, 10)).toEqual([
        { runId: 'run_1', owner: 'proc_a', expiresAt: T0 + 3000 },
      ]);
      const takers = await Promise.all(
        ['proc_b', 'proc_c', 'proc_d'].map((owner) => storage.takeExpiredLease('run_1', owner, T0 + 3000, T0 + 9000)),
      );
      expect(takers).toEqual([true, false, false]);
      expect(await storage.renewLease('run_1', 'proc_a', T0 + 10_000)).toBe(false);
      expect(await storage.listExpiredLeases(T0 + 9000, 10)).toEqual([
        { runId: 'run_1', owner: 'proc_b', expiresAt: T0 + 9000 },
      ]);
      await finishFixtureRun(storage, run, 'ok');
      expect(await storage.takeExpiredLease('run_1', 'proc_c', T0 + 20_000, T0 + 30_000)).toBe(false);
    });

    it('compacts ended runs to their final snapshot', async () => {
      const ended = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const finalSnapshot = await finishFixtureRun(storage, ended, 'kept');
      await createFixtureRun(storage, { runId: 'run_2', sessionId: 'ses_2', isNewSession: true });
      expect(await storage.compactEndedRuns(T0 + 500, 10)).toBe(0);
      expect(await storage.compactEndedRuns(T0 + 501, 10)).toBe(1);
      expect(await storage.compactEndedRuns(T0 + 501, 10)).toBe(0);
      expect(await storage.readEvents('run_1', 0)).toEqual([]);
      expect(await storage.getRun('run_1')).toEqual(
        expect.objectContaining({ firstSeq: 6, lastSeq: 5, isCompacted: true, finalSnapshot }),
      );
      expect((await storage.readEvents('run_2', 0)).map((e) => e.type)).toEqual(['RUN_STARTED']);
      expect((await storage.listMessages('ses_1', {}))?.items.map((m) => m.content)).toEqual([
        'kept',
        'Hello from run_1',
      ]);
    });

    it('deletes what the retention caps and the idle TTL do not keep, never a session with an active run', async () => {
      const make = (runId: string, sessionId: string, isNewSession: boolean, subjectId = 'alice') =>
        createFixtureRun(storage, { runId, sessionId, isNewSession, subjectId });
      await finishFixtureRun(storage, await make('run_1', 'ses_1', true), 'one');
      await finishFixtureRun(storage, await make('run_2', 'ses_1', false), 'two');
      const third = await make('run_3', 'ses_1', false);
      await finishFixtureRun(storage, await make('run_4', 'ses_2', true), 'four');
      const fifth = await make('run_5', 'ses_3', true);
      await finishFixtureRun(storage, await make('run_6', 'ses_4', true, 'bob'), 'six');
      const caps = { now: T0, sessionIdleTtlMs: DAY, maxSessions: 100, maxRuns: 100, protectActiveSessionsMs: DAY };
      expect(
        await storage.enforceRetention({
          ...caps,
          maxSessionsPerSubject: 2,
          maxRunsPerSession: 2,
          touched: { sessionId: 'ses_1', subjectId: 'alice' },
        }),
      ).toEqual({ sessionIds: ['ses_2'], runIds: ['run_1', 'run_4'] });
      expect(await storage.listSessionRunIds('ses_1')).toEqual(['run_2', 'run_3']);
      expect((await storage.listMessages('ses_1', {}))?.items.map((m) => m.content)).toEqual([
        'two',
        'Hello from run_2',
      ]);
      expect(await storage.getRun('run_4')).toBeNull();
      expect(await storage.readEvents('run_4', 0)).toEqual([]);
      const loose = { maxSessionsPerSubject: 100, maxRunsPerSession: 100 };
      // Past the store cap only the session idle for the protection window goes (ses_4 ended at T0 + 500).
      const idle = { now: T0 + 1000, protectActiveSessionsMs: 500 };
      expect(await storage.enforceRetention({ ...caps, ...loose, ...idle, maxSessions: 1 })).toEqual({
        sessionIds: ['ses_4'],
        runIds: ['run_6'],
      });
      await finishFixtureRun(storage, third, 'three');
      await finishFixtureRun(storage, fifth, 'five');
      expect(await storage.enforceRetention({ ...caps, ...loose, now: T0 + 1499, sessionIdleTtlMs: 1000 })).toEqual({
        sessionIds: [],
        runIds: [],
      });
      expect(await storage.enforceRetention({ ...caps, ...loose, now: T0 + 1500, sessionIdleTtlMs: 1000 })).toEqual({
        sessionIds: ['ses_1', 'ses_3'],
        runIds: ['run_2', 'run_3', 'run_5'],
      });
      expect(await storage.listSessions('alice', { limit: 10 })).toEqual({ items: [], next: null });
      expect(await storage.counts()).toEqual({ sessions: 0, runs: 0 });
    });

    it('past the store caps never evicts another identity’s recent sessions: a full store has no room', async () => {
      // An identity with three recently active sessions, then 60 identities with one session each
      // (each asks for room, creates and applies the caps, as the server does), under a cap of 50.
      const caps = {
        sessionIdleTtlMs: 7 * DAY,
        maxSessionsPerSubject: 3,
        maxRunsPerSession: 100,
        maxSessions: 50,
        maxRuns: 1_000,
        protectActiveSessionsMs: DAY,
      };
      const createdAt = (laterMs: number) => T0 + laterMs + 500;
      const tryNew = async (runId: string, sessionId: string, subjectId: string, laterMs: number) => {
        const room = await storage.checkSessionRoom({ ...caps, now: createdAt(laterMs) });
        if (room.kind === 'full') return room;
        const run = await createFixtureRun(storage, { runId, sessionId, isNewSession: true, subjectId, laterMs });
        await finishFixtureRun(storage, run, 'ok');
        return storage.enforceRetention({ ...caps, now: createdAt(laterMs), touched: { sessionId, subjectId } });
      };
      for (const n of [1, 2, 3]) await tryNew(`run_a${n}`, `ses_a${n}`, 'alice', 0);
      const answers = [];
      for (let n = 0; n < 60; n += 1) answers.push(await tryNew(`run_v${n}`, `ses_v${n}`, `visitor_${n}`, HOUR));
      expect(answers.slice(0, 47)).toEqual(Array(47).fill({ sessionIds: [], runIds: [] }));
      expect(answers.slice(47)).toEqual(Array(13).fill({ kind: 'full', limit: 'maxSessions' }));
      expect(await storage.counts()).toEqual({ sessions: 50, runs: 50 });
      const aliceSessions = async () =>
        (await storage.listSessions('alice', { limit: 10 }))?.items.map((session) => session.sessionId).sort();
      expect(await aliceSessions()).toEqual(['ses_a1', 'ses_a2', 'ses_a3']);
      // A sweep under a lower cap deletes none of them either while they are recent.
      const sweep = { ...caps, now: createdAt(HOUR), maxSessions: 10 };
      expect(await storage.enforceRetention(sweep)).toEqual({ sessionIds: [], runIds: [] });
      // alice's fourth session is refused by the full store, but a run in one of her sessions goes
      // on, and her own cap still takes her own oldest session, however recent.
      const full = { kind: 'full', limit: 'maxSessions' };
      expect(await tryNew('run_a4', 'ses_a4', 'alice', HOUR)).toEqual(full);
      const again = { runId: 'run_a1b', sessionId: 'ses_a1', isNewSession: false, laterMs: HOUR };
      await finishFixtureRun(storage, await createFixtureRun(storage, again), 'ok');
      const touched = { sessionId: 'ses_a1', subjectId: 'alice' };
      expect(
        await storage.enforceRetention({ ...caps, now: createdAt(HOUR), maxSessionsPerSubject: 2, touched }),
      ).toEqual({ sessionIds: ['ses_a2'], runIds: ['run_a2'] });
      // The room it made goes to the next newcomer.
      expect(await tryNew('run_v60', 'ses_v60', 'visitor_60', HOUR)).toEqual({ sessionIds: [], runIds: [] });
      expect(await storage.counts()).toEqual({ sessions: 50, runs: 51 });
      // A day after alice's last activity in ses_a3 it is idle: a newcomer gets room, and it goes.
      expect(await storage.checkSessionRoom({ ...caps, now: createdAt(DAY) - 1 })).toEqual(full);
      expect(await tryNew('run_n1', 'ses_n1', 'newcomer', DAY)).toEqual({ sessionIds: ['ses_a3'], runIds: ['run_a3'] });
      expect(await aliceSessions()).toEqual(['ses_a1']);
    });

    it('past the store caps deletes idle sessions oldest first, never an active one or a recent one', async () => {
      const caps = {
        sessionIdleTtlMs: 7 * DAY,
        maxSessionsPerSubject: 100,
        maxRunsPerSession: 100,
        protectActiveSessionsMs: DAY,
      };
      const make = async (n: number, subjectId: string, laterMs: number, isLeftActive = false) => {
        const options = { runId: `run_${n}`, sessionId: `ses_${n}`, isNewSession: true, subjectId, laterMs };
        const run = await createFixtureRun(storage, options);
        if (!isLeftActive) await finishFixtureRun(storage, run, 'ok');
      };
      // Activity (the end, 500 ms after laterMs): ses_1 at 0 h, ses_2 (active) 1 h, ses_3 2 h,
      // ses_4 3 h, ses_5 10 h; 28 h later the first four are idle past the day, ses_5 is not.
      await make(1, 'alice', 0);
      await make(2, 'bob', HOUR, true);
      await make(3, 'carol', 2 * HOUR);
      await make(4, 'alice', 3 * HOUR);
      await make(5, 'dave', 10 * HOUR);
      const now = T0 + 28 * HOUR;
      expect(await storage.checkSessionRoom({ ...caps, now, maxSessions: 5, maxRuns: 100 })).toEqual({ kind: 'room' });
      expect(await storage.enforceRetention({ ...caps, now, maxSessions: 4, maxRuns: 100 })).toEqual({
        sessionIds: ['ses_1'],
        runIds: ['run_1'],
      });
      // Past maxRuns alike: ses_2 has an active run, so ses_3 goes.
      expect(await storage.enforceRetention({ ...caps, now, maxSessions: 100, maxRuns: 3 })).toEqual({
        sessionIds: ['ses_3'],
        runIds: ['run_3'],
      });
      // ses_4 could go, so there is room at the cap; an hour earlier it was recent, so there was none.
      const full = { maxSessions: 3, maxRuns: 100 };
      expect(await storage.checkSessionRoom({ ...caps, ...full, now })).toEqual({ kind: 'room' });
      expect(await storage.checkSessionRoom({ ...caps, ...full, now: now - HOUR })).toEqual({
        kind: 'full',
        limit: 'maxSessions',
      });
      expect(await storage.checkSessionRoom({ ...caps, maxSessions: 4, maxRuns: 3, now: now - HOUR })).toEqual({
        kind: 'full',
        limit: 'maxRuns',
      });
      expect(await storage.enforceRetention({ ...caps, now, maxSessions: 1, maxRuns: 100 })).toEqual({
        sessionIds: ['ses_4'],
        runIds: ['run_4'],
      });
      // Left over its cap: the active session and the recent one stay, and nothing has room.
      expect(await storage.counts()).toEqual({ sessions: 2, runs: 2 });
      expect(await storage.checkSessionRoom({ ...caps, now, maxSessions: 1, maxRuns: 100 })).toEqual({
        kind: 'full',
        limit: 'maxSessions',
      });
    });

    it('binds AG-UI threads to sessions and runs to their AG-UI run, and forgets them with their session', async () => {
      const first = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      await storage.bindAgUiThread({ subjectId: 'alice', threadId: 'thread-1', sessionId: 'ses_1' });
      await storage.setAgUiSegment('run_1', 'agui-run-1');
      expect(await storage.findAgUiThread('alice', 'thread-1')).toBe('ses_1');
      expect(await storage.findAgUiThread('bob', 'thread-1')).toBeNull();
      expect(await storage.getAgUiSegment('run_1')).toBe('agui-run-1');
      // A resume moves the segment on; a thread bound again serves the new session.
      await storage.setAgUiSegment('run_1', 'agui-run-2');
      expect(await storage.getAgUiSegment('run_1')).toBe('agui-run-2');
      await finishFixtureRun(storage, first, 'one');
      await createFixtureRun(storage, { runId: 'run_2', sessionId: 'ses_2', isNewSession: true });
      await storage.bindAgUiThread({ subjectId: 'alice', threadId: 'thread-1', sessionId: 'ses_2' });
      await storage.bindAgUiThread({ subjectId: 'alice', threadId: 'thread-old', sessionId: 'ses_1' });
      expect(await storage.findAgUiThread('alice', 'thread-1')).toBe('ses_2');
      // Nothing is bound to what does not exist.
      await storage.bindAgUiThread({ subjectId: 'alice', threadId: 'thread-x', sessionId: 'ses_missing' });
      await storage.setAgUiSegment('run_missing', 'agui-run-x');
      expect(await storage.findAgUiThread('alice', 'thread-x')).toBeNull();
      expect(await storage.getAgUiSegment('run_missing')).toBeNull();
      expect(await storage.deleteSession({ sessionId: 'ses_1', subjectId: 'alice' })).toMatchObject({
        kind: 'deleted',
      });
      expect(await storage.findAgUiThread('alice', 'thread-old')).toBeNull();
      expect(await storage.getAgUiSegment('run_1')).toBeNull();
      expect(await storage.findAgUiThread('alice', 'thread-1')).toBe('ses_2');
      if (subject.reopen === undefined) return;
      storage = await subject.reopen();
      expect(await storage.findAgUiThread('alice', 'thread-1')).toBe('ses_2');
    });

    it("keeps each person's one vote per answer, replaced by their next, and forgets it with its session", async () => {
      const run = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const vote = { runId: 'run_1', subjectId: 'alice', rating: 'up' as const, comment: null, updatedAt: 1_000 };
      expect(await storage.putFeedback({ ...vote, messageId: 'msg_b' })).toBe(true);
      expect(await storage.putFeedback({ ...vote, messageId: 'msg_a', rating: 'down', comment: 'Too long' })).toBe(
        true,
      );
      expect(await storage.putFeedback({ ...vote, messageId: 'msg_b', subjectId: 'bob', rating: 'down' })).toBe(true);
      // A second vote replaces the first: one per person and message.
      expect(
        await storage.putFeedback({
          ...vote,
          messageId: 'msg_b',
          rating: 'down',
          comment: 'Wrong date',
          updatedAt: 2_000,
        }),
      ).toBe(true);
      expect(await storage.listFeedback('run_1', 'alice')).toEqual([
        {
          runId: 'run_1',
          subjectId: 'alice',
          messageId: 'msg_a',
          rating: 'down',
          comment: 'Too long',
          updatedAt: 1_000,
        },
        {
          runId: 'run_1',
          subjectId: 'alice',
          messageId: 'msg_b',
          rating: 'down',
          comment: 'Wrong date',
          updatedAt: 2_000,
        },
      ]);
      expect(await storage.listFeedback('run_1', 'bob')).toEqual([
        { runId: 'run_1', subjectId: 'bob', messageId: 'msg_b', rating: 'down', comment: null, updatedAt: 1_000 },
      ]);
      expect(await storage.listFeedback('run_1', 'carol')).toEqual([]);
      // Nothing is kept for a run that does not exist.
      expect(await storage.putFeedback({ ...vote, runId: 'run_missing', messageId: 'msg_a' })).toBe(false);
      expect(await storage.listFeedback('run_missing', 'alice')).toEqual([]);
      await finishFixtureRun(storage, run, 'rated');
      if (subject.reopen !== undefined) {
        storage = await subject.reopen();
        expect(await storage.listFeedback('run_1', 'bob')).toHaveLength(1);
      }
      expect(await storage.deleteSession({ sessionId: 'ses_1', subjectId: 'alice' })).toMatchObject({
        kind: 'deleted',
      });
      expect(await storage.listFeedback('run_1', 'alice')).toEqual([]);
      // A run of the same id later starts with no votes.
      await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_2', isNewSession: true });
      expect(await storage.listFeedback('run_1', 'bob')).toEqual([]);
    });

    it('keeps the first value of a setting', async () => {
      expect(await storage.getOrCreateSetting('identity_secret', 'first')).toBe('first');
      expect(await storage.getOrCreateSetting('identity_secret', 'second')).toBe('first');
    });

    if (!traits.isDurable) return;
    it('keeps everything across a close and a reopen', async () => {
      if (subject.reopen === undefined) throw new Error(`${name} is durable but its factory has no reopen`);
      const run = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const finalSnapshot = await finishFixtureRun(storage, run, 'durable');
      const live = await createFixtureRun(storage, { runId: 'run_2', sessionId: 'ses_2', isNewSession: true });
      await storage.getOrCreateSetting('identity_secret', 'kept');
      await storage.updateSessionTitle({ sessionId: 'ses_2', subjectId: 'alice', title: 'Renamed' });
      const gone = await createFixtureRun(storage, { runId: 'run_4', sessionId: 'ses_4', isNewSession: true });
      await finishFixtureRun(storage, gone, 'deleted');
      await storage.deleteSession({ sessionId: 'ses_4', subjectId: 'alice' });
      storage = await subject.reopen();
      expect(await storage.getSession('ses_2')).toMatchObject({ title: 'Renamed' });
      expect([await storage.getSession('ses_4'), await storage.getRun('run_4')]).toEqual([null, null]);
      expect((await storage.getRun('run_1'))?.finalSnapshot).toEqual(finalSnapshot);
      expect(await storage.readEvents('run_2', 0)).toEqual([live.started]);
      expect(await storage.getOrCreateSetting('identity_secret', 'other')).toBe('kept');
      expect(await storage.listExpiredLeases(Number.MAX_SAFE_INTEGER, 10)).toEqual([
        expect.objectContaining({ runId: 'run_2', owner: 'proc_a' }),
      ]);
    });
  });
}
