import { afterEach, describe, expect, it } from 'vitest';
import type { EngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { startEngineServer } from '../agent-loop/test-support/start-engine-server.ts';
import { createAgUiTestClient } from './test-support/ag-ui-client.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(): Promise<EngineServer> {
  const server = await startEngineServer();
  open.push(server);
  return server;
}

describe('POST /ag-ui with @ag-ui/client HttpAgent', () => {
  it('streams a text answer', async () => {
    const server = await serve();
    const client = createAgUiTestClient({ url: `${server.baseUrl}/api/agent/ag-ui`, user: 'alice' });
    const events = await client.send('/echo hello there');
    console.log(JSON.stringify(client.wireEvents(), null, 1).slice(0, 3000));
    console.log(events.map((e) => e.type));
    console.log(JSON.stringify(client.agent.messages));
    expect(client.invalidEvents()).toEqual([]);
  });
});
