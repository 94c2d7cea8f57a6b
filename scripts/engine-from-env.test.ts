import { afterEach, describe, expect, it } from 'vitest';
import type { ModelInfo, RunResource } from '../src/core/protocol.ts';
import { readChunkFrames, startReplayHttpServer } from '../src/server/models/test-support/replay-http-server.ts';
import { startTestServer } from '../src/server/test-support/start-test-server.ts';
import type { TestServer } from '../src/server/test-support/start-test-server.ts';
import { startAgUiTestAgent } from '../test/support/ag-ui-agent.ts';
import { createEngineFromEnv } from './engine-from-env.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function answerOf(server: TestServer, text: string): Promise<RunResource> {
  const { runId } = await server.createRun('alice', text);
  const read = async (): Promise<RunResource> => (await (await server.request(`/runs/${runId}`)).json()) as RunResource;
  await expect.poll(async () => (await read()).status).toBe('completed');
  return read();
}

describe('createEngineFromEnv', () => {
  it('fronts the AG-UI agent of AGUI_AGENT_URL, with the headers of AGUI_AGENT_HEADERS and the demo tools', async () => {
    const agent = await startAgUiTestAgent();
    const engine = createEngineFromEnv({
      AGUI_AGENT_URL: agent.url,
      AGUI_AGENT_HEADERS: '{"authorization":"Bearer agent-key"}',
    });
    const server = await startTestServer({ engine });
    closers.push(
      () => server.close(),
      () => agent.close(),
    );
    const resource = await answerOf(server, 'text');
    expect(resource.messages.at(-1)?.content).toBe('Hello from the AG-UI agent.');
    expect(agent.headers[0]?.authorization).toBe('Bearer agent-key');
    expect(agent.inputs[0]?.tools.map((tool) => tool.name)).toEqual([
      'orders.lookup',
      'drafts.list',
      'drafts.delete',
      'report.generate',
      'profile.propose',
    ]);
  });

  it('runs our own loop without AGUI_AGENT_URL, offering the demo tools', async () => {
    const server = await startTestServer({ engine: createEngineFromEnv({ AGENT_SCRIPTED_DELAY_MS: '0' }) });
    closers.push(() => server.close());
    expect((await answerOf(server, '/echo scripted')).messages.at(-1)?.content).toBe('scripted');
    const lookup = await answerOf(server, '/tool');
    expect(lookup.toolCalls.map((call) => [call.name, call.status])).toEqual([['orders.lookup', 'completed']]);
  });

  it.each([
    {
      env: { AGENT_MODEL_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', AGENT_MODEL: 'gpt-5.1' },
      label: 'gpt-5.1 (openai.responses)',
      // The AI SDK's OpenAI provider reads the Responses API.
      frames: readChunkFrames('issue-20047-openai-responses.chunks.txt'),
    },
    {
      env: { OPENAI_API_KEY: 'sk-test', AGENT_MODEL: 'gpt-5.1' },
      label: 'gpt-5.1',
      // The OpenAI-compatible adapter reads Chat Completions.
      frames: [
        'data: {"choices":[{"index":0,"delta":{"content":"Hi."}}]}\n\n',
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
        'data: [DONE]\n\n',
      ],
    },
  ])('names the model of $env in bootstrap and RUN_STARTED, not the scripted one', async (c) => {
    const provider = await startReplayHttpServer();
    closers.push(() => provider.close());
    provider.reply({ kind: 'sse', frames: c.frames });
    const server = await startTestServer({
      engine: createEngineFromEnv({ ...c.env, OPENAI_BASE_URL: `${provider.origin}/v1` }),
    });
    closers.push(() => server.close());
    const { models } = (await (await server.request('/bootstrap')).json()) as { models: ModelInfo[] };
    expect(models.map((model) => [model.modelId, model.label])).toEqual([['gpt-5.1', c.label]]);
    const resource = await answerOf(server, 'Hello');
    expect(resource.model).toEqual({ modelId: 'gpt-5.1' });
    expect(provider.requests).toHaveLength(1);
  });

  it.each([
    [{ AGUI_AGENT_URL: 'not a url' }, 'AGUI_AGENT_URL must be an http or https URL, e.g. http://127.0.0.1:8000/agent.'],
    [
      { AGUI_AGENT_URL: 'file:///etc/passwd' },
      'AGUI_AGENT_URL must be an http or https URL, e.g. http://127.0.0.1:8000/agent.',
    ],
    [
      { AGUI_AGENT_URL: 'http://127.0.0.1:1/', AGUI_AGENT_HEADERS: '{"x":1}' },
      'AGUI_AGENT_HEADERS must be a JSON object of strings, e.g. {"authorization":"Bearer …"}.',
    ],
    [
      { AGUI_AGENT_URL: 'http://127.0.0.1:1/', AGUI_AGENT_HEADERS: 'authorization: x' },
      'AGUI_AGENT_HEADERS must be a JSON object of strings, e.g. {"authorization":"Bearer …"}.',
    ],
  ])('refuses %o with a message naming the problem', (env, message) => {
    expect(() => createEngineFromEnv(env)).toThrow(new RangeError(message));
  });
});
