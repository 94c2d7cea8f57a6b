import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentClient } from './agent-client.ts';
import type { AgentClientHandle, AgentClientOptions } from './agent-client-types.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { startTcpFaultProxy } from '../../../test/support/tcp-fault-proxy.ts';
import type { TcpFaultProxy } from '../../../test/support/tcp-fault-proxy.ts';
import { isSettledState, waitForState } from '../../../test/support/wait-for-state.ts';

let server: ReferenceServer;
let proxy: TcpFaultProxy;
const clients: AgentClientHandle[] = [];

beforeEach(async () => {
  server = await startReferenceServer();
  proxy = await startTcpFaultProxy({ upstreamPort: server.port });
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.dispose();
  await proxy.close();
  await server.close();
});

function newClient(options: Partial<AgentClientOptions> = {}): AgentClientHandle {
  const endpoint = `http://127.0.0.1:${proxy.port}/api/agent`;
  const client = createAgentClient({ endpoint, random: () => 0, ...options });
  clients.push(client);
  return client;
}

const isCreate = (exchange: { method: string; path: string }): boolean =>
  exchange.method === 'POST' && exchange.path === '/api/agent/v1/runs';
const isCancel = (exchange: { method: string; path: string }): boolean =>
  exchange.method === 'POST' && exchange.path.endsWith('/cancel');

describe('Stop against a slow reference server', () => {
  it('shows stopping at once while the create is unanswered, cancels the run once its id arrives, and settles on the cancel', async () => {
    const client = newClient();
    await client.bootstrap();
    const releaseCreate = proxy.holdNext(isCreate);
    const sent = client.send('/slow');
    const stopped = client.cancel();
    expect(client.getState()).toMatchObject({ isStopping: true, run: null });
    expect(proxy.count(isCancel)).toBe(0);

    releaseCreate();
    const { runId } = await sent;
    await stopped;
    expect(proxy.count(isCancel)).toBe(1);
    const settled = await waitForState(client, isSettledState, 'the stopped run to end');
    expect(settled.run).toMatchObject({ runId, status: 'cancelled' });
    expect(settled.isStopping).toBe(false);
    expect(proxy.count(isCreate)).toBe(1);
  });

  it('shows stopping at once while the cancel is unanswered and settles when the run ends', async () => {
    const client = newClient();
    await client.send('/slow');
    await waitForState(client, (state) => state.connection === 'streaming', 'the stream');
    const releaseCancel = proxy.holdNext(isCancel);
    const stopped = client.cancel();
    expect(client.getState()).toMatchObject({ isStopping: true, connection: 'streaming' });
    const settled = await waitForState(client, isSettledState, 'the cancelled run');
    expect([settled.run?.status, settled.isStopping]).toEqual(['cancelled', false]);
    releaseCancel();
    await stopped;
  });

  it('ends the stop without a cancel when the create it waited for fails', async () => {
    const client = newClient({ createAttempts: 1 });
    await client.bootstrap();
    proxy.addFault({ match: isCreate, afterBytes: 0, kind: 'cut' });
    const sent = client.send('/echo never created');
    const stopped = client.cancel();
    expect(client.getState().isStopping).toBe(true);
    await expect(sent).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    await stopped;
    expect(client.getState()).toMatchObject({ isStopping: false, pendingSend: { status: 'failed' } });
    expect(proxy.count(isCancel)).toBe(0);
  });

  it('settles every promise when disposed during a cancel that waits for its create', async () => {
    const client = newClient();
    await client.bootstrap();
    const releaseCreate = proxy.holdNext(isCreate);
    const sent = client.send('/slow');
    const stopped = client.cancel();
    client.dispose();
    releaseCreate();
    await expect(sent).rejects.toMatchObject({ code: 'CLIENT_DISPOSED' });
    await expect(stopped).resolves.toBeUndefined();
    await expect(client.cancel()).rejects.toMatchObject({ code: 'CLIENT_DISPOSED' });
    expect(proxy.count(isCancel)).toBe(0);
  });
});
