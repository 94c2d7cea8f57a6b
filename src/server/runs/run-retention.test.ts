import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import type { FakeClock } from '../../../test/support/fake-clock.ts';
import { createManualEngine, createScriptedTestEngine } from '../test-support/manual-engine.ts';
import { startTestServer } from '../test-support/start-test-server.ts';
import type { ManualEngine } from '../test-support/manual-engine.ts';
import { EndedRunRecord } from './ended-run-record.ts';
import { createMemoryEventLog } from './event-log.ts';
import type { EventLog } from './event-log.ts';
import type { RetentionPolicy } from './run-retention.ts';
import type { RunStore } from './run-store.ts';
import { createRunStore } from './run-store.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const policy: RetentionPolicy = {
  eventRetentionMs: HOUR,
  sessionIdleTtlMs: 24 * HOUR,
  maxSessionsPerSubject: 100,
  maxRunsPerSession: 100,
  maxSessions: 1_000,
  maxRuns: 1_000,
};

interface Setup {
  store: RunStore;
  clock: FakeClock;
  engine: ManualEngine;
  eventLog: EventLog;
  /** Creates a run for `subject` (in `sessionId` when given) and, unless `isLeftActive`, ends it. */
  run(
    subject: string,
    options?: { sessionId?: string; isLeftActive?: boolean },
  ): Promise<{ runId: string; sessionId: string }>;
}

function setup(overrides: Partial<RetentionPolicy> = {}, maxActiveRunsPerSubject = 10): Setup {
  const clock = createFakeClock(Date.UTC(2026, 10, 29, 13, 40, 0));
  const engine = createManualEngine();
  const eventLog = createMemoryEventLog();
  let next = 0;
  const store = createRunStore({
    eventLog,
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
    eventLog,
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

describe('retention of the in-memory store (docs/server.md, "Memory")', () => {
  it('trims an ended run’s log after eventRetention and keeps its snapshot', async () => {
    const { store, clock, eventLog, run } = setup();
    const { runId } = await run('alice');
    // At its end a run keeps only what it answers with: the compact record, no abort controller.
    expect(store.getRun(runId)?.record).toBeInstanceOf(EndedRunRecord);
    expect(store.getRun(runId)?.controller).toBeNull();
    clock.advance(HOUR - 1);
    await store.sweep();
    expect((await eventLog.read(runId, 0)).map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    clock.advance(1);
    await store.sweep();
    expect([await eventLog.read(runId, 0), await eventLog.firstSeq(runId), await eventLog.lastSeq(runId)]).toEqual([
      [],
      3,
      2,
    ]);
    expect(store.getRun(runId)?.record.snapshot().status).toBe('completed');
  });

  it('evicts a session idle past the TTL with its runs and their logs; an active or recently used one stays', async () => {
    const { store, clock, eventLog, run } = setup();
    const idle = await run('alice');
    const active = await run('alice', { isLeftActive: true });
    clock.advance(12 * HOUR);
    const recent = await run('bob');
    clock.advance(12 * HOUR);
    await store.sweep();
    expect(store.getSession(idle.sessionId)).toBeUndefined();
    expect(store.getRun(idle.runId)).toBeUndefined();
    expect(await eventLog.lastSeq(idle.runId)).toBe(0);
    expect(store.getSession(active.sessionId)?.activeRunId).toBe(active.runId);
    expect(store.getSession(recent.sessionId)).toBeDefined();
    expect(store.counts()).toEqual({ sessions: 2, runs: 2 });
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
    expect(store.listSessions('alice').map((s) => s.sessionId)).toEqual([
      fourth.sessionId,
      third.sessionId,
      first.sessionId,
    ]);
    expect(store.getRun(second.runId)).toBeUndefined();
    expect(store.getSession(bob.sessionId)).toBeDefined();
  });

  it('past maxRunsPerSession the session’s oldest runs leave it, and their messages its history', async () => {
    const { store, run } = setup({ maxRunsPerSession: 2 });
    const first = await run('alice');
    const second = await run('alice', { sessionId: first.sessionId });
    const third = await run('alice', { sessionId: first.sessionId });
    expect(store.getSession(first.sessionId)?.runIds).toEqual([second.runId, third.runId]);
    expect(store.getRun(first.runId)).toBeUndefined();
    expect(store.settledMessages(first.sessionId).map((m) => m.role)).toEqual(['user', 'user']);
  });

  it('past maxSessions or maxRuns the least recently active idle sessions of anyone go first; active ones never', async () => {
    const { store, clock, run } = setup({ maxSessions: 3, maxRuns: 4 });
    const old = await run('alice', { isLeftActive: true });
    clock.advance(MINUTE);
    const bob = await run('bob');
    clock.advance(MINUTE);
    const carol = await run('carol');
    clock.advance(MINUTE);
    const dave = await run('dave');
    expect(store.counts()).toEqual({ sessions: 3, runs: 3 });
    expect([old, carol, dave].map((s) => store.getSession(s.sessionId) !== undefined)).toEqual([true, true, true]);
    expect(store.getSession(bob.sessionId)).toBeUndefined();
    await run('dave', { sessionId: dave.sessionId });
    await run('dave', { sessionId: dave.sessionId });
    expect(store.counts()).toEqual({ sessions: 2, runs: 4 });
    expect(store.getSession(carol.sessionId)).toBeUndefined();
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
    await expect(tooLarge).rejects.toMatchObject({ status: 422, init: { details: { limit: 'maxEventBytes' } } });
    expect(store.counts()).toEqual({ sessions: 0, runs: 0 });
    await run('alice', { isLeftActive: true });
    await expect(run('alice')).rejects.toMatchObject({ status: 429, init: { details: { limit: 'maxActiveRuns' } } });
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
      await server.handler.store.getRun(runId)?.record.waitFor((s) => s.status === 'completed');
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
      expect(server.handler.store.counts()).toEqual({ sessions: 0, runs: 0 });
    } finally {
      await server.close();
    }
  });
});
