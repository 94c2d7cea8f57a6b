import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { startRedisFaultProxy, type RedisFaultProxy } from '../../../test/support/redis-fault-proxy.ts';
import { openRedisStorage } from './open-redis-storage.ts';
import type { AgentStorage } from './storage-port.ts';
import { createFixtureRun } from './test-support/storage-fixtures.ts';

let suite = 0;

describe('an append whose Redis connection drops mid-call', () => {
  let proxy: RedisFaultProxy;
  let storage: AgentStorage;
  beforeEach(async () => {
    proxy = await startRedisFaultProxy(Number(new URL(inject('redisUrl')).port));
    storage = await openRedisStorage({
      url: proxy.url,
      keyPrefix: `uncertain-${process.pid}-${(suite += 1)}:`,
      onError: () => {},
    });
  });
  afterEach(async () => {
    await storage.close();
    await proxy.close();
  });

  for (const when of ['before-redis', 'after-redis'] as const) {
    it(`lands exactly once when the connection drops ${when === 'before-redis' ? 'before Redis ran it' : 'after Redis ran it, before its reply'}`, async () => {
      const run = await createFixtureRun(storage, { runId: 'run_1', sessionId: 'ses_1', isNewSession: true });
      const running = run.events.next('RUN_STATUS_CHANGED', { status: 'running' });
      // The append's values carry the event id; nothing else the storage sends does.
      proxy.cutNext(running.eventId, when);
      await storage.appendEvents('run_1', 1, [running]);
      expect(proxy.cuts()).toBe(1);
      expect(await storage.readEvents('run_1', 0)).toEqual([run.started, running]);
      const step = run.events.next('STEP_STARTED', { stepName: 'round:1' });
      await storage.appendEvents('run_1', 2, [step]);
      expect((await storage.getRun('run_1'))?.lastSeq).toBe(3);
    });
  }
});
