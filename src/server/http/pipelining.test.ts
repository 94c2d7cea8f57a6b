import { afterEach, describe, expect, it } from 'vitest';
import { openRawSocket } from '../../../test/support/raw-http.ts';
import { createScriptedTestEngine } from '../test-support/manual-engine.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { readSse, startTestServer } from '../test-support/start-test-server.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Waits until `condition` holds (expect.poll, every few ms, up to 10 s). */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  await expect.poll(condition, { message: what, timeout: 10_000, interval: 5 }).toBe(true);
}

describe('HTTP/1.1 pipelining', () => {
  it('releases the slot of every pipelined request whose client left, so the next user is served', async () => {
    let served = 0;
    const server = await startTestServer({
      engine: createScriptedTestEngine(),
      maxConnections: 1_000,
      authenticate: (req) => {
        served += 1;
        const user = req.headers['x-test-user'];
        return typeof user === 'string' ? { id: user } : null;
      },
    });
    servers.push(server);
    const request = 'GET /api/agent/v1/bootstrap HTTP/1.1\r\nHost: x\r\nX-Test-User: mallory\r\n\r\n';
    // Each client sends its requests in one write and leaves at once, before any answer arrives.
    const sockets = await Promise.all(Array.from({ length: 8 }, () => openRawSocket(server.port)));
    for (const socket of sockets) {
      socket.on('error', () => undefined);
      socket.write(request.repeat(100));
      socket.destroy();
    }
    await waitUntil(() => sockets.every((socket) => socket.destroyed), 'the clients are gone');
    // Node goes on parsing what arrived. More than one request per socket reaches the handler:
    // responses were queued behind others.
    await expect.poll(() => served, { timeout: 10_000 }).toBeGreaterThan(sockets.length);
    await waitUntil(() => server.handler.stats().requests === 0, 'every slot is released');

    const answer = await server.request('/bootstrap', { user: 'dave' });
    expect(answer.status).toBe(200);
    const { runId } = await server.createRun('dave', 'Still there?');
    const { events } = await readSse(await server.request(`/runs/${runId}/events`, { user: 'dave' }));
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });
});
