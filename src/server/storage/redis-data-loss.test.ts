import { createClient } from '@redis/client';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.ts';
import type { FakeClock } from '../../../test/support/fake-clock.ts';
import { STORED_SECRET_REFRESH_MS } from '../agent-handler-defaults.ts';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { startTestServer } from '../test-support/start-test-server.ts';
import { createToolGrants } from '../executors/tool-grants.ts';
import { createStoredSecret } from '../stored-secret.ts';
import { openRedisStorage } from './open-redis-storage.ts';

// A database of its own: FLUSHDB there is the data loss of a Redis without persistence that
// restarted, for these handlers only (FLUSHALL would wipe the suites sharing the redis-server).
const redisUrl = `${inject('redisUrl')}/7`;

describe('server processes on one Redis that lost its data', () => {
  let clock: FakeClock;
  const servers: TestServer[] = [];
  const reported: string[] = [];
  const startProcess = async (): Promise<TestServer> => {
    const server = await startTestServer({
      engine: createScriptedTestEngine(),
      clock,
      storage: await openRedisStorage({ url: redisUrl, keyPrefix: 'secret-loss:' }),
      onError: (error, context) => {
        if (context['where'] === 'settings') reported.push(String(context['setting']));
      },
    });
    servers.push(server);
    return server;
  };
  const identityOn = async (server: TestServer, user: string): Promise<string> => {
    const response = await fetch(`${server.baseUrl}/api/agent/v1/bootstrap`, { headers: { 'x-test-user': user } });
    return ((await response.json()) as { identity: { identityId: string } }).identity.identityId;
  };
  const loseRedisData = async (): Promise<void> => {
    const raw = createClient({ url: redisUrl });
    await raw.connect();
    await raw.flushDb();
    await raw.close();
  };

  beforeEach(async () => {
    clock = createFakeClock(Date.UTC(2026, 11, 2, 6, 0, 0));
    reported.length = 0;
    await loseRedisData();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await server.close();
      await server.handler.storage.close();
    }
  });

  it('converges on the secret a new process wrote: every process gives a user one identity again', async () => {
    const [a, b] = [await startProcess(), await startProcess()];
    const before = await identityOn(a, 'alice');
    expect(await identityOn(b, 'alice')).toBe(before);
    await loseRedisData();
    const c = await startProcess();
    const after = await identityOn(c, 'alice');
    expect(after).not.toBe(before);
    clock.advance(STORED_SECRET_REFRESH_MS);
    expect([await identityOn(a, 'alice'), await identityOn(b, 'alice')]).toEqual([after, after]);
    expect(reported).toEqual(['identity_secret', 'identity_secret']);
  });

  it('writes the secret it holds back when it reads first after the loss, so identities stay what they were', async () => {
    const a = await startProcess();
    const before = await identityOn(a, 'alice');
    await loseRedisData();
    clock.advance(STORED_SECRET_REFRESH_MS);
    expect(await identityOn(a, 'alice')).toBe(before);
    const c = await startProcess();
    expect(await identityOn(c, 'alice')).toBe(before);
    expect(reported).toEqual([]);
  });

  it('grant keys converge too: a grant minted on one process after the loss is the one another checks', async () => {
    const grantsOn = async () => {
      const storage = await openRedisStorage({ url: redisUrl, keyPrefix: 'secret-loss:' });
      const secret = createStoredSecret({
        storage,
        name: 'tool_grant_secret',
        now: () => clock.now(),
        refreshMs: STORED_SECRET_REFRESH_MS,
        onChange: ({ name }) => reported.push(name),
      });
      return { storage, grants: createToolGrants(secret) };
    };
    const claim = { runId: 'run_1', toolCallId: 'call_1', executorId: 'exe_1' };
    const old = await grantsOn();
    const before = await old.grants.grantFor(claim);
    await loseRedisData();
    const fresh = await grantsOn();
    const after = await fresh.grants.grantFor(claim);
    expect(after).not.toBe(before);
    clock.advance(STORED_SECRET_REFRESH_MS);
    expect(await old.grants.grantFor(claim)).toBe(after);
    expect(reported).toEqual(['tool_grant_secret']);
    await old.storage.close();
    await fresh.storage.close();
  });
});
