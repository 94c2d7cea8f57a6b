import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedisServer, type PrivateRedisServer } from '../../../test/support/redis-server.ts';
import { createRateLimiter } from '../limits/rate-limiter.ts';
import { EventLogConflictError } from '../runs/event-log.ts';
import { openRedisStorage } from './open-redis-storage.ts';
import type { AgentStorage } from './storage-port.ts';
import { createFixtureRun, finishFixtureRun } from './test-support/storage-fixtures.ts';

type RawClient = ReturnType<typeof createClient>;

/** Resolves with the first seq `storage`'s doorbell of `runId` rings with that reaches `seq`. */
function waitForRing(storage: AgentStorage, runId: string, seq: number): Promise<number> {
  return new Promise((resolve) => {
    const unsubscribe = storage.subscribe(runId, (lastSeq) => {
      if (lastSeq < seq) return;
      unsubscribe();
      resolve(lastSeq);
    });
  });
}

/** Calls of one command since the server started, from `INFO commandstats`. */
async function callsOf(raw: RawClient, command: string): Promise<number> {
  const info = await raw.sendCommand<string>(['INFO', 'commandstats']);
  const line = info.split('\r\n').find((row) => row.startsWith(`cmdstat_${command}:`));
  return Number(/calls=(\d+)/.exec(line ?? '')?.[1] ?? 0);
}

/** Every key that starts with `prefix` (`SCAN`). */
async function keysUnder(raw: RawClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, page] = await raw.sendCommand<[string, string[]]>([
      'SCAN',
      cursor,
      'MATCH',
      `${prefix}*`,
      'COUNT',
      '1000',
    ]);
    keys.push(...page);
    cursor = next;
  } while (cursor !== '0');
  return keys.sort();
}

let suite = 0;

// These tests count commands server-wide (INFO commandstats), so they get a redis-server of their
// own: the one the other suites share sees their commands too.
describe('Redis storage across processes (two storages on one redis-server)', () => {
  let server: PrivateRedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server.stop());
  let prefix: string;
  let producer: AgentStorage;
  let reader: AgentStorage;
  let raw: RawClient;
  beforeEach(async () => {
    prefix = `redis-storage-${process.pid}-${(suite += 1)}:`;
    producer = await openRedisStorage({ url: server.url, keyPrefix: prefix });
    reader = await openRedisStorage({ url: server.url, keyPrefix: prefix, tailGroupSize: 2 });
    raw = createClient({ url: server.url, RESP: 2 });
    await raw.connect();
  });
  afterEach(async () => {
    await producer.close();
    await reader.close();
    await raw.close();
  });

  it('wakes a tail on one storage for appends through the other, and serves it what the ring brought', async () => {
    const run = await createFixtureRun(producer, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
    const keepTail = reader.subscribe('run_1', () => undefined);
    const rung = waitForRing(reader, 'run_1', 3);
    // The tail reads from its cursor first, so appends right after subscribing are never missed.
    const running = run.events.next('RUN_STATUS_CHANGED', { status: 'running' });
    const step = run.events.next('STEP_STARTED', { stepName: 'round:1' });
    await producer.appendEvents('run_1', 1, [running]);
    await producer.appendEvents('run_1', 2, [step]);
    expect(await rung).toBe(3);
    const xrangeBefore = await callsOf(raw, 'xrange');
    expect(await reader.readTail?.('run_1', 1)).toEqual([running, step]);
    expect(await reader.readTail?.('run_1', 3)).toEqual([]);
    expect(await callsOf(raw, 'xrange')).toBe(xrangeBefore);
    // It started at the stream's last entry when it was subscribed (RUN_STARTED here).
    expect(await reader.readTail?.('run_1', 0)).toEqual([run.started, running, step]);
    expect(await callsOf(raw, 'xrange')).toBe(xrangeBefore);
    keepTail();
    // Without listeners the tail is gone, and reads go to the stream.
    expect(await reader.readTail?.('run_1', 1)).toEqual([running, step]);
    expect(await callsOf(raw, 'xrange')).toBe(xrangeBefore + 1);
  });

  it('has Redis itself refuse an entry id that does not follow the stream, and fences a stale writer', async () => {
    const run = await createFixtureRun(producer, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
    await producer.appendEvents('run_1', 1, [run.events.next('RUN_STATUS_CHANGED', { status: 'running' })]);
    await expect(raw.sendCommand(['XADD', `${prefix}events:run_1`, '2-0', 'e', '{}'])).rejects.toThrow(
      'ERR The ID specified in XADD is equal or smaller than the target stream top item',
    );
    const stale = reader.appendEvents('run_1', 1, [run.events.at(2, 'STEP_STARTED', { stepName: 'late' })]);
    await expect(stale).rejects.toEqual(new EventLogConflictError('run_1', 1, 2));
    const ids = (await raw.sendCommand<[string, string[]][]>(['XRANGE', `${prefix}events:run_1`, '-', '+'])).map(
      ([id]) => id,
    );
    expect(ids).toEqual(['1-0', '2-0']);
  });

  it('sends the appends of one event-loop turn in one script call, each run fenced on its own', async () => {
    const runs = [];
    for (let index = 0; index < 20; index += 1) {
      runs.push(
        await createFixtureRun(producer, { runId: `run_${index}`, sessionId: `ses_${index}`, isNewSession: true }),
      );
    }
    const calls = await callsOf(raw, 'evalsha');
    const appends = runs.map((run, index) =>
      // run_7's writer is stale: only its append is refused.
      index === 7
        ? producer.appendEvents(run.runId, 5, [run.events.at(6, 'RUN_STATUS_CHANGED', { status: 'running' })])
        : producer.appendEvents(run.runId, 1, [run.events.next('RUN_STATUS_CHANGED', { status: 'running' })]),
    );
    const settled = await Promise.allSettled(appends);
    expect(await callsOf(raw, 'evalsha')).toBe(calls + 1);
    expect(settled.map((outcome) => outcome.status)).toEqual(
      runs.map((_, index) => (index === 7 ? 'rejected' : 'fulfilled')),
    );
    expect(settled[7]).toEqual({ status: 'rejected', reason: new EventLogConflictError('run_7', 5, 1) });
    expect((await reader.getRun('run_3'))?.lastSeq).toBe(2);
    expect((await reader.getRun('run_7'))?.lastSeq).toBe(1);
  });

  it('lets runs join waiting groups (CLIENT UNBLOCK), and waits without polling', async () => {
    const runIds = ['run_1', 'run_2', 'run_3', 'run_4', 'run_5'];
    const runs = [];
    for (const [index, runId] of runIds.entries()) {
      runs.push(await createFixtureRun(producer, { runId, sessionId: `ses_${index}`, isNewSession: true }));
    }
    // Subscribed one after another: each joins a group (two runs each here) whose XREAD may already block.
    const rings: Promise<number>[] = [];
    for (const runId of runIds) {
      rings.push(waitForRing(reader, runId, 2));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const xreads = await callsOf(raw, 'xread');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await callsOf(raw, 'xread')).toBe(xreads);
    for (const run of runs) {
      await producer.appendEvents(run.runId, 1, [run.events.next('RUN_STATUS_CHANGED', { status: 'running' })]);
    }
    expect(await Promise.all(rings)).toEqual([2, 2, 2, 2, 2]);
    expect(await callsOf(raw, 'client|unblock')).toBeGreaterThan(0);
  });

  it('compacts an ended run by deleting its stream, keeping its snapshot', async () => {
    const run = await createFixtureRun(producer, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
    const finalSnapshot = await finishFixtureRun(producer, run, 'kept');
    expect(await raw.exists(`${prefix}events:run_1`)).toBe(1);
    expect(await reader.compactEndedRuns(Number.MAX_SAFE_INTEGER, 10)).toBe(1);
    expect(await raw.exists(`${prefix}events:run_1`)).toBe(0);
    expect((await reader.getRun('run_1'))?.finalSnapshot).toEqual(finalSnapshot);
  });

  it('shares rate buckets between storages, deciding exactly as the in-memory limiter', async () => {
    let now = 1_796_000_000_000;
    const memory = createRateLimiter({ clock: { now: () => now }, perMinute: { answers: 3 } });
    const decisions = { redis: [] as unknown[], memory: [] as unknown[] };
    const take = async (storage: AgentStorage, bucket: string) => {
      decisions.redis.push(await storage.takeRate?.({ bucket, perMinute: 3, now }));
      decisions.memory.push(memory.take(bucket, 'answers'));
    };
    // Three pass across the two storages, the fourth waits 20 s less what has refilled since.
    await take(producer, 'answers:idn_1');
    now += 400;
    await take(reader, 'answers:idn_1');
    await take(producer, 'answers:idn_1');
    await take(reader, 'answers:idn_1');
    // Another identity has a bucket of its own.
    await take(reader, 'answers:idn_2');
    now += 19_600;
    await take(producer, 'answers:idn_1');
    await take(reader, 'answers:idn_1');
    expect(decisions.redis).toEqual([
      { isAllowed: true },
      { isAllowed: true },
      { isAllowed: true },
      { isAllowed: false, retryAfterMs: 19_600 },
      { isAllowed: true },
      { isAllowed: true },
      { isAllowed: false, retryAfterMs: 20_000 },
    ]);
    expect(decisions.redis).toEqual(decisions.memory);
    // A bucket's key expires once it has refilled (here 60 s after the last counted request).
    const ttl = await raw.pTTL(`${prefix}rate:3:answers:idn_1`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("counts a subject's runs that have not ended, whichever storage created or ended them", async () => {
    const first = await createFixtureRun(producer, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
    await createFixtureRun(reader, { runId: 'run_2', sessionId: 'ses_2', isNewSession: true });
    await createFixtureRun(reader, { runId: 'run_3', sessionId: 'ses_3', isNewSession: true, subjectId: 'bob' });
    expect([await reader.countActiveRuns?.('alice'), await producer.countActiveRuns?.('bob')]).toEqual([2, 1]);
    await finishFixtureRun(reader, first, 'done');
    expect([await producer.countActiveRuns?.('alice'), await producer.countActiveRuns?.('carol')]).toEqual([1, 0]);
  });

  /** Creates run `runId` in `ses_1` (asking `q <runId>`) and ends it with the answer `a <runId>`. */
  const answered = async (runId: string, leavesHistory?: readonly string[]): Promise<void> => {
    const isNewSession = (await producer.getSession('ses_1')) === null;
    const run = await createFixtureRun(producer, {
      runId,
      sessionId: 'ses_1',
      isNewSession,
      text: `q ${runId}`,
      ...(leavesHistory === undefined ? {} : { leavesHistory }),
    });
    await finishFixtureRun(producer, run, `a ${runId}`);
  };
  const asked = (...runIds: string[]): string[] => runIds.flatMap((runId) => [`q ${runId}`, `a ${runId}`]);
  const history = async (): Promise<unknown[] | undefined> =>
    (await reader.listMessages('ses_1', {}))?.items.map((message) => message.content).reverse();
  const show = (leave: string[], enter: string[]) =>
    reader.showBranch({ sessionId: 'ses_1', subjectId: 'alice', leave, enter });

  it('leaves no key of a session whose branches were shown, deleted by request or by retention', async () => {
    const sessionKeys = async (): Promise<string[]> =>
      (await keysUnder(raw, prefix)).filter((key) => /ses_1|run_\d/.test(key));
    await answered('run_1');
    await answered('run_2');
    await answered('run_3', ['run_2']);
    expect((await show(['run_3'], ['run_2'])).kind).toBe('shown');
    expect(await raw.hExists(`${prefix}run:run_3`, 'messagePositions')).toBe(1);
    expect(await sessionKeys()).not.toEqual([]);
    expect(await reader.deleteSession({ sessionId: 'ses_1', subjectId: 'alice' })).toMatchObject({ kind: 'deleted' });
    expect(await sessionKeys()).toEqual([]);
    await answered('run_1');
    await answered('run_2', ['run_1']);
    const swept = await reader.enforceRetention({
      now: Number.MAX_SAFE_INTEGER,
      sessionIdleTtlMs: 1,
      maxSessionsPerSubject: 100,
      maxRunsPerSession: 100,
      maxSessions: 100,
      maxRuns: 100,
      protectActiveSessionsMs: 1,
    });
    expect(swept).toEqual({ sessionIds: ['ses_1'], runIds: ['run_1', 'run_2'] });
    expect(await sessionKeys()).toEqual([]);
  });

  it('brings back at their place the messages of runs settled before their positions were kept', async () => {
    await answered('run_1');
    await answered('run_2');
    await answered('run_3');
    // Data of an earlier version: no positions in the run hashes.
    for (const runId of ['run_1', 'run_2', 'run_3']) await raw.hDel(`${prefix}run:${runId}`, 'messagePositions');
    // Leaving keeps the positions the run has in the history then, so it comes back there.
    await answered('run_4', ['run_2', 'run_3']);
    expect(await raw.hExists(`${prefix}run:run_2`, 'messagePositions')).toBe(1);
    expect((await show(['run_4'], ['run_2', 'run_3'])).kind).toBe('shown');
    expect(await history()).toEqual(asked('run_1', 'run_2', 'run_3'));
    expect((await show(['run_2', 'run_3'], ['run_4'])).kind).toBe('shown');
    expect((await show([], ['run_3'])).kind).toBe('shown');
    expect(await history()).toEqual(asked('run_1', 'run_3', 'run_4'));
    // A run answered again by a retry of an earlier version left without them: it comes back after
    // the history it finds, and keeps that place from then on.
    await answered('run_5');
    await raw.hDel(`${prefix}run:run_5`, 'messagePositions');
    await raw.zRem(`${prefix}messages:ses_1`, ['msg_user_run_5', 'msg_answer_run_5']);
    await answered('run_6');
    expect((await show(['run_6'], ['run_5'])).kind).toBe('shown');
    expect(await history()).toEqual(asked('run_1', 'run_3', 'run_4', 'run_5'));
    expect((await show([], ['run_6'])).kind).toBe('shown');
    expect((await show([], ['run_5'])).kind).toBe('shown');
    expect(await history()).toEqual(asked('run_1', 'run_3', 'run_4', 'run_6', 'run_5'));
    expect(await reader.countSessionMessages('ses_1')).toBe(10);
  });
});
