import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import type { FakeClock } from '../../../test/support/fake-clock.ts';
import { createManualEngine, createScriptedTestEngine } from '../test-support/manual-engine.ts';
import { startTestServer } from '../test-support/start-test-server.ts';
import type { ManualEngine } from '../test-support/manual-engine.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import { EndedRunRecord } from './ended-run-record.ts';
import type { RetentionPolicy, RunStore } from './run-store.ts';
import { createRunStore, STORE_FULL_RETRY_AFTER_MS } from './run-store.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const policy: RetentionPolicy = {
  eventRetentionMs: HOUR,
  sessionIdleTtlMs: 24 * HOUR,
  maxSessionsPerSubject: 100,
  maxRunsPerSession: 100,
  maxSessions: 1_000,
  maxRuns: 1_000,
  protectActiveSessionsMs: HOUR,
};

interface Setup {
  store: RunStore;
  clock: FakeClock;
  engine: ManualEngine;
  storage: AgentStorage;
  /** Creates a run for `subject` (in `sessionId` when given) and, unless `isLeftActive`, ends it. */
  run(
    subject: string,
    options?: { sessionId?: string; isLeftActive?: boolean },
  ): Promise<{ runId: string; sessionId: string }>;
}

function setup(overrides: Partial<RetentionPolicy> = {}, maxActiveRunsPerSubject = 10): Setup {
  const clock = createFakeClock(Date.UTC(2026, 10, 29, 13, 40, 0));
  const engine = createManualEngine();
  const storage = createMemoryStorage();
  let next = 0;
  const store = createRunStore({
    storage,
    leaseTtlMs: 10_000,
    engine,
    clock,
    ids: (prefix) => `${prefix}_${(next += 1)}`,
    cancelGraceMs: 1_000,
    retention: { ...policy, ...overrides },
    maxActiveRunsPerSubject,
    maxEventBytes: 2_048,
    onEngineError: (error) => {
      throw error;
    },
    onError: (error) => {
      throw error;
    },
  });
  return {
    store,
    clock,
    engine,
    storage,
    async run(subject, options = {}) {
      const { entry, session } = await store.createRun({
        subject: { id: subject },
        ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
        agent: { agentId: 'agt_1', versionId: 'agv_1' },
        model: null,
        input: { content: [{ type: 'text', text: `from ${subject}` }] },
        options: {},
      });
      if (options.isLeftActive !== true) {
        const handle = await engine.handleOf(entry.record.runId);
        await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
      }
      return { runId: entry.record.runId, sessionId: session.sessionId };
    },
  };
}

describe('retention of the run store (docs/server.md, "Storage")', () => {
  it('compacts an ended run’s log after eventRetention and keeps its snapshot', async () => {
    const { store, clock, storage, run } = setup();
    const { runId } = await run('alice');
    // An ended run is read back as what it answers with: its final snapshot, no live machinery.
    expect((await store.getRun(runId))?.record).toBeInstanceOf(EndedRunRecord);
    clock.advance(HOUR - 1);
    await store.sweep();
    expect((await storage.readEvents(runId, 0)).map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    clock.advance(1);
    await store.sweep();
    const stored = await storage.getRun(runId);
    expect([await storage.readEvents(runId, 0), stored?.firstSeq, stored?.lastSeq, stored?.isCompacted]).toEqual([
      [],
      3,
      2,
      true,
    ]);
    expect((await store.getRun(runId))?.record.snapshot().status).toBe('completed');
  });

  it('evicts a session idle past the TTL with its runs and their logs; an active or recently used one stays', async () => {
    const { store, clock, storage, run } = setup();
    const idle = await run('alice');
    const active = await run('alice', { isLeftActive: true });
    clock.advance(12 * HOUR);
    const recent = await run('bob');
    clock.advance(12 * HOUR);
    await store.sweep();
    expect(await store.getSession(idle.sessionId)).toBeNull();
    expect(await store.getRun(idle.runId)).toBeNull();
    expect(await storage.readEvents(idle.runId, 0)).toEqual([]);
    expect((await store.getSession(active.sessionId))?.activeRunId).toBe(active.runId);
    expect(await store.getSession(recent.sessionId)).not.toBeNull();
    expect(await store.counts()).toEqual({ sessions: 2, runs: 2 });
  });

  it('past maxSessionsPerSubject a new session evicts that subject’s least recently active idle sessions', async () => {
    const { store, clock, run } = setup({ maxSessionsPerSubject: 3 });
    const first = await run('alice');
    clock.advance(MINUTE);
    const second = await run('alice');
    clock.advance(MINUTE);
    const third = await run('alice', { isLeftActive: true });
    clock.advance(MINUTE);
    await run('alice', { sessionId: first.sessionId }); // first is now the most recently active
    const bob = await run('bob');
    clock.advance(MINUTE);
    const fourth = await run('alice');
    // Listed by latest activity: first's new run moved it above third.
    expect((await store.listSessions('alice', { limit: 100 }))?.items.map((s) => s.sessionId)).toEqual([
      fourth.sessionId,
      first.sessionId,
      third.sessionId,
    ]);
    expect(await store.getRun(second.runId)).toBeNull();
    expect(await store.getSession(bob.sessionId)).not.toBeNull();
  });

  it('past maxRunsPerSession the session’s oldest runs leave it, and their messages its history', async () => {
    const { store, run } = setup({ maxRunsPerSession: 2 });
    const first = await run('alice');
    const second = await run('alice', { sessionId: first.sessionId });
    const third = await run('alice', { sessionId: first.sessionId });
    expect(await store.listSessionRunIds(first.sessionId)).toEqual([second.runId, third.runId]);
    expect(await store.getRun(first.runId)).toBeNull();
    expect((await store.listMessages(first.sessionId, {}))?.items.map((m) => m.runId)).toEqual([
      third.runId,
      second.runId,
    ]);
  });

  it('past maxSessions or maxRuns only sessions idle for protectActiveSessionsMs go; while none is, new ones are refused', async () => {
    const { store, clock, run } = setup({ maxSessions: 3, maxRuns: 4 });
    const old = await run('alice', { isLeftActive: true });
    const bob = await run('bob');
    clock.advance(MINUTE);
    const carol = await run('carol');
    // Full, and every session recent: a new one is refused before anything is written.
    await expect(run('dave')).rejects.toMatchObject({
      init: {
        code: 'AGENT_UNAVAILABLE',
        retryAfterMs: STORE_FULL_RETRY_AFTER_MS,
        details: { reason: 'capacity', limit: 'maxSessions' },
      },
    });
    expect(await store.counts()).toEqual({ sessions: 3, runs: 3 });
    // A run in an existing session goes on; then the runs are at their cap too.
    await run('carol', { sessionId: carol.sessionId });
    await expect(run('dave')).rejects.toMatchObject({ init: { details: { limit: 'maxSessions' } } });
    // An hour after bob's run his session may go (alice's, older, has an active run): dave gets in.
    clock.advance(HOUR - MINUTE);
    const dave = await run('dave');
    expect(await store.getSession(bob.sessionId)).toBeNull();
    const kept = await Promise.all([old, carol, dave].map((s) => store.getSession(s.sessionId)));
    expect(kept.map((session) => session !== null)).toEqual([true, true, true]);
    expect(await store.counts()).toEqual({ sessions: 3, runs: 4 });
    // Past maxRuns the same way: carol's session, idle an hour, goes for dave's next runs.
    clock.advance(MINUTE);
    await run('dave', { sessionId: dave.sessionId });
    expect(await store.getSession(carol.sessionId)).toBeNull();
    expect(await store.counts()).toEqual({ sessions: 2, runs: 3 });
  });

  it('a create refused for a too large RUN_STARTED leaves no session and frees its active slot', async () => {
    const { store, run } = setup({}, 1);
    const tooLarge = store.createRun({
      subject: { id: 'alice' },
      agent: { agentId: 'agt_1', versionId: 'agv_1' },
      model: null,
      input: { content: [{ type: 'text', text: 'x'.repeat(3_000) }] },
      options: {},
    });
    await expect(tooLarge).rejects.toMatchObject({
      init: { code: 'VALIDATION_FAILED', details: { limit: 'maxEventBytes' } },
    });
    expect(await store.counts()).toEqual({ sessions: 0, runs: 0 });
    await run('alice', { isLeftActive: true });
    await expect(run('alice')).rejects.toMatchObject({
      init: { code: 'RATE_LIMITED', details: { limit: 'maxActiveRuns' } },
    });
  });
});

describe('the handler’s sweeper applies retention on the injected clock', () => {
  it('an idle session is gone (404) once the sweeper runs past sessionIdleTtlSec', async () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 29, 13, 40, 0));
    const server = await startTestServer({
      engine: createScriptedTestEngine(),
      clock,
      limits: { sessionIdleTtlSec: 3_600, eventRetentionSec: 600 },
    });
    try {
      const { runId, sessionId } = await server.createRun('alice');
      await (await server.handler.store.getRun(runId))?.record.waitFor((s) => s.status === 'completed');
      // The sweeper runs every 60 s (at most) and schedules its next turn when a sweep is done.
      const advanceMinutes = async (minutes: number): Promise<void> => {
        for (let i = 0; i < minutes; i += 1) {
          clock.advance(60_000);
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await advanceMinutes(59);
      expect((await server.request(`/sessions/${sessionId}`)).status).toBe(200);
      expect((await server.request(`/runs/${runId}/events`)).status).toBe(410);
      await advanceMinutes(1);
      expect((await server.request(`/sessions/${sessionId}`)).status).toBe(404);
      expect((await server.request(`/runs/${runId}`)).status).toBe(404);
      expect(await server.handler.store.counts()).toEqual({ sessions: 0, runs: 0 });
    } finally {
      await server.close();
    }
  });
});
