import { createClient } from '@redis/client';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { EVENT_EPOCH_MS } from '../../core/state/test-support/events.ts';
import { openRedisStorage } from './open-redis-storage.ts';
import { CLUSTER_SHARDS, shardOfSubject } from './redis-keys.ts';
import type { AgentStorage } from './storage-port.ts';
import type { FixtureRun } from './test-support/storage-fixtures.ts';
import { createFixtureRun, createRunCommand, finishFixtureRun } from './test-support/storage-fixtures.ts';

type RawClient = ReturnType<typeof createClient>;

const SUBJECTS = Array.from({ length: 60 }, (_, index) => `idn_spread_${index}`);
const FAR_FUTURE = Number.MAX_SAFE_INTEGER;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Every key of one node that holds `part` (`SCAN`, whole keyspace). */
async function keysOn(node: RawClient, part: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, page] = await node.sendCommand<[string, string[]]>([
      'SCAN',
      cursor,
      'MATCH',
      `*${part}*`,
      'COUNT',
      '1000',
    ]);
    keys.push(...page);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

let suite = 0;

// The suite's private three-node cluster (three masters, slots 0–5460, 5461–10922, 10923–16383).
describe('Redis Cluster: a shard per subject, spread over the nodes', () => {
  let prefix: string;
  let storage: AgentStorage;
  let other: AgentStorage;
  let nodes: RawClient[];
  beforeEach(async () => {
    prefix = `spread-${process.pid}-${(suite += 1)}:`;
    const clusterNodes = inject('redisClusterNodes');
    storage = await openRedisStorage({ clusterNodes, keyPrefix: prefix });
    other = await openRedisStorage({ clusterNodes, keyPrefix: prefix, tailGroupSize: 4 });
    nodes = clusterNodes.map((url) => createClient({ url, RESP: 2 }));
    await Promise.all(nodes.map((node) => node.connect()));
  });
  afterEach(async () => {
    await storage.close();
    await other.close();
    await Promise.all(nodes.map((node) => node.close()));
  });

  const createAll = (): Promise<FixtureRun[]> =>
    Promise.all(
      SUBJECTS.map((subjectId, index) =>
        createFixtureRun(storage, { runId: `run_${index}`, sessionId: `ses_${index}`, isNewSession: true, subjectId }),
      ),
    );

  it("keeps a subject's session, run and log in its shard's slot, and the subjects on every node", async () => {
    await createAll();
    const byNode = await Promise.all(nodes.map((node) => keysOn(node, prefix)));
    for (const keys of byNode) expect(keys.filter((key) => key.includes('}session:')).length).toBeGreaterThan(5);
    const slotOf = async (key: string): Promise<number> =>
      Number(await nodes[0]?.sendCommand<number>(['CLUSTER', 'KEYSLOT', key]));
    const sessionSlots = new Set<number>();
    for (const [index, subjectId] of SUBJECTS.entries()) {
      const tag = `{${prefix}${String(shardOfSubject(subjectId)).padStart(2, '0')}}`;
      const own = [`${tag}session:ses_${index}`, `${tag}run:run_${index}`, `${tag}events:run_${index}`];
      const node = byNode.findIndex((keys) => keys.includes(own[0] as string));
      expect(node).toBeGreaterThanOrEqual(0);
      for (const key of own) expect(byNode[node]).toContain(key);
      const slots = await Promise.all(own.map(slotOf));
      expect(new Set(slots).size).toBe(1);
      sessionSlots.add(slots[0] as number);
    }
    // 60 subjects over 64 shards: about 39 distinct tags, so as many slots.
    expect(sessionSlots.size).toBeGreaterThan(20);
    expect(sessionSlots.size).toBeLessThanOrEqual(CLUSTER_SHARDS);
    // Each session and run has its shard's record, in a slot of its own.
    const wheres = byNode.flat().filter((key) => key.startsWith(`${prefix}where:`));
    expect(wheres).toHaveLength(2 * SUBJECTS.length);
    expect(await storage.counts()).toEqual({ sessions: 60, runs: 60 });
  });

  it('finds a run from any process by its id alone, and rings its tail across shards', async () => {
    const runs = await createAll();
    const rings = runs.map(
      (run) =>
        new Promise<number>((resolve) => {
          const unsubscribe = other.subscribe(run.runId, (lastSeq) => {
            if (lastSeq < 2) return;
            unsubscribe();
            resolve(lastSeq);
          });
        }),
    );
    // Let every tail prime (its first read), then append to all 60 runs in one event-loop turn:
    // the turn's appends go as one script call per shard.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all(
      runs.map((run) =>
        storage.appendEvents(run.runId, 1, [
          run.events.next('TEXT_MESSAGE_START', { messageId: `msg_${run.runId}`, role: 'assistant' }),
        ]),
      ),
    );
    expect(await Promise.all(rings)).toEqual(runs.map(() => 2));
    for (const run of runs.slice(0, 5)) {
      expect((await other.getRun(run.runId))?.lastSeq).toBe(2);
      expect((await other.readEvents(run.runId, 1)).map((event) => event.seq)).toEqual([2]);
      expect((await other.getSession(run.sessionId))?.activeRunId).toBe(run.runId);
    }
  });

  it('sweeps leases, compaction, idempotency, executors and retention in every shard, oldest first within the limit', async () => {
    const runs = await createAll();
    const expired = await other.listExpiredLeases(FAR_FUTURE, 100);
    expect(expired.map((lease) => lease.runId).sort()).toEqual(runs.map((run) => run.runId).sort());
    expect(await other.listExpiredLeases(FAR_FUTURE, 7)).toEqual(expired.slice(0, 7));

    await Promise.all(runs.map((run) => finishFixtureRun(storage, run, `answer ${run.runId}`)));
    const compacted: number[] = [];
    let taken: number;
    do {
      taken = await other.compactEndedRuns(FAR_FUTURE, 7);
      compacted.push(taken);
    } while (taken === 7);
    expect(compacted.reduce((sum, count) => sum + count, 0)).toBe(60);
    for (const run of runs) expect((await storage.getRun(run.runId))?.isCompacted).toBe(true);

    for (const [index, subjectId] of SUBJECTS.entries()) {
      const request = { recordId: `key_${index}`, subjectId, fingerprint: 'fp', token: `tok_${index}` };
      await storage.beginIdempotency({ ...request, now: 0, lockedUntil: 1000, expiresAt: 1000 + index });
    }
    expect(await other.deleteExpiredIdempotency(1000 + 29)).toBe(30);
    expect(await other.deleteExpiredIdempotency(FAR_FUTURE)).toBe(30);

    const leases = storage.executorLeases;
    const caps = { now: 0, maxPerSubject: 20, maxExecutors: 10_000 };
    for (const [index, subjectId] of SUBJECTS.entries()) {
      await leases?.connect({ subjectId, executorId: `exe_${index}`, tools: ['t'], expiresAt: 1000 + index }, caps);
    }
    expect(await other.executorLeases?.count()).toBe(60);
    const firstTaken = (await other.executorLeases?.takeExpired(FAR_FUTURE, 25)) ?? [];
    expect(firstTaken.map((lease) => lease.executorId)).toEqual(
      Array.from({ length: 25 }, (_, index) => `exe_${index}`),
    );
    expect(await other.executorLeases?.takeExpired(FAR_FUTURE, 100)).toHaveLength(35);

    const swept = await other.enforceRetention({
      now: FAR_FUTURE,
      sessionIdleTtlMs: 1,
      maxSessionsPerSubject: 100,
      maxRunsPerSession: 100,
      maxSessions: 10_000,
      maxRuns: 10_000,
      protectActiveSessionsMs: 1,
    });
    expect(swept.sessionIds.sort()).toEqual(runs.map((run) => run.sessionId).sort());
    expect(await storage.counts()).toEqual({ sessions: 0, runs: 0 });
    const left = (await Promise.all(nodes.map((node) => keysOn(node, prefix)))).flat();
    expect(left.filter((key) => key.includes('session:') || key.includes('where:'))).toEqual([]);
  });

  it('drops the shard records of a refused create and of a deleted session with its runs', async () => {
    const wheres = async (): Promise<string[]> =>
      (await Promise.all(nodes.map((node) => keysOn(node, `${prefix}where:`)))).flat().sort();
    const run = await createFixtureRun(storage, {
      runId: 'run_a',
      sessionId: 'ses_a',
      isNewSession: true,
      subjectId: 'idn_a',
    });
    await finishFixtureRun(storage, run, 'done');
    const second = await createFixtureRun(storage, {
      runId: 'run_b',
      sessionId: 'ses_a',
      isNewSession: false,
      subjectId: 'idn_a',
    });
    const refused = createRunCommand({
      runId: 'run_other',
      sessionId: 'ses_a',
      isNewSession: false,
      subjectId: 'idn_other',
    });
    expect(await other.createRun(refused.command)).toEqual({ kind: 'session_not_found' });
    const where = (id: string): string => `${prefix}where:{${id}}`;
    expect(await wheres()).toEqual([where('ses_a'), where('run_a'), where('run_b')].sort());
    await finishFixtureRun(storage, second, 'again');
    expect(await other.deleteSession({ sessionId: 'ses_a', subjectId: 'idn_a' })).toEqual({
      kind: 'deleted',
      runIds: ['run_a', 'run_b'],
    });
    expect(await wheres()).toEqual([]);
    expect(await storage.getSession('ses_a')).toBeNull();
  });

  it("moves a session's branches in its shard from any process, and its deletion leaves no key of it", async () => {
    const subjectId = 'idn_branches';
    const tag = `{${prefix}${String(shardOfSubject(subjectId)).padStart(2, '0')}}`;
    const answered = async (runId: string, leavesHistory?: readonly string[]): Promise<void> => {
      const isNewSession = runId === 'run_b1';
      const made = { runId, sessionId: 'ses_b', isNewSession, subjectId, text: `q ${runId}` };
      const run = await createFixtureRun(storage, {
        ...made,
        ...(leavesHistory === undefined ? {} : { leavesHistory }),
      });
      await finishFixtureRun(storage, run, `a ${runId}`);
    };
    await answered('run_b1');
    await answered('run_b2');
    await answered('run_b3', ['run_b2']);
    expect(await other.showBranch({ sessionId: 'ses_b', subjectId, leave: ['run_b3'], enter: ['run_b2'] })).toEqual({
      kind: 'shown',
      session: await storage.getSession('ses_b'),
    });
    expect((await other.listMessages('ses_b', {}))?.items.map((message) => message.content)).toEqual([
      'a run_b2',
      'q run_b2',
      'a run_b1',
      'q run_b1',
    ]);
    const sessionKeys = async (): Promise<string[]> =>
      (await Promise.all(nodes.map((node) => keysOn(node, prefix))))
        .flat()
        .filter((key) => key.includes('ses_b') || key.includes('run_b'));
    expect((await sessionKeys()).every((key) => key.startsWith(tag) || key.startsWith(`${prefix}where:`))).toBe(true);
    expect(await other.deleteSession({ sessionId: 'ses_b', subjectId })).toMatchObject({ kind: 'deleted' });
    expect(await sessionKeys()).toEqual([]);
  });

  it('applies the store caps over the shards: the least recently active idle sessions go, wherever they live', async () => {
    // One session per subject: the first 20 end a second apart, the other 40 an hour later.
    const runs = await Promise.all(
      SUBJECTS.map((subjectId, index) =>
        createFixtureRun(storage, {
          runId: `run_${index}`,
          sessionId: `ses_${index}`,
          isNewSession: true,
          subjectId,
          laterMs: index < 20 ? index * 1000 : HOUR,
        }),
      ),
    );
    await Promise.all(runs.map((run) => finishFixtureRun(storage, run, 'done')));
    const caps = {
      sessionIdleTtlMs: FAR_FUTURE,
      maxSessionsPerSubject: 100,
      maxRunsPerSession: 100,
      maxRuns: 10_000,
      protectActiveSessionsMs: DAY,
    };
    // A day after the 20th ended all 20 are idle; a millisecond before the first did, none was.
    const now = EVENT_EPOCH_MS + 19_500 + DAY;
    const firstIdle = EVENT_EPOCH_MS + 500 + DAY;
    expect(await other.checkSessionRoom({ ...caps, now: firstIdle - 1, maxSessions: 60 })).toEqual({
      kind: 'full',
      limit: 'maxSessions',
    });
    expect(await other.checkSessionRoom({ ...caps, now: firstIdle, maxSessions: 60 })).toEqual({ kind: 'room' });
    const created = await createFixtureRun(other, {
      runId: 'run_last',
      sessionId: 'ses_last',
      isNewSession: true,
      subjectId: 'idn_newcomer',
      laterMs: DAY,
    });
    const touched = { sessionId: created.sessionId, subjectId: 'idn_newcomer' };
    // 61 sessions, cap 45: the 16 least recently active, whichever shard holds them.
    const evicted = await other.enforceRetention({ ...caps, now, maxSessions: 45, touched });
    expect(evicted.sessionIds).toEqual(Array.from({ length: 16 }, (_, index) => `ses_${index}`));
    // A sweep under cap 30 takes the other four idle ones and leaves the store over its cap.
    const swept = await storage.enforceRetention({ ...caps, now, maxSessions: 30 });
    expect(swept.sessionIds).toEqual(['ses_16', 'ses_17', 'ses_18', 'ses_19']);
    expect(await storage.counts()).toEqual({ sessions: 41, runs: 41 });
    expect(await storage.checkSessionRoom({ ...caps, now, maxSessions: 30 })).toEqual({
      kind: 'full',
      limit: 'maxSessions',
    });
  });
});
