import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, ModelInfo } from '../core/protocol.ts';
import { REASONING_EFFORTS } from '../core/protocol.ts';
import { createAgUiEngine } from './ag-ui/create-ag-ui-engine.ts';
import { DEFAULT_MODELS } from './agent-handler-defaults.ts';
import { createRunEngine } from './agent-loop/create-run-engine.ts';
import type { AiSdkLanguageModel } from './models/ai-sdk-model.ts';
import { fromAiSdk } from './models/ai-sdk-model.ts';
import type { RunEngine } from './runs/run-handle.ts';
import type { TestServer } from './test-support/start-test-server.ts';
import { readSse, startTestServer } from './test-support/start-test-server.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An AI SDK language model (specification V3) that answers every call with one text part. */
function openAiModel(): AiSdkLanguageModel {
  return {
    specificationVersion: 'v3',
    provider: 'openai.responses',
    modelId: 'gpt-4o-mini',
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<unknown>({
          start(controller) {
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hello from the model.' });
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 5, text: 5, reasoning: 0 },
              },
            });
            controller.close();
          },
        }),
      }),
  };
}

async function serve(engine: RunEngine, models?: ModelInfo[]): Promise<TestServer> {
  const server = await startTestServer({ engine, ...(models === undefined ? {} : { models }) });
  servers.push(server);
  return server;
}

async function bootstrapModels(server: TestServer): Promise<ModelInfo[]> {
  return ((await (await server.request('/bootstrap')).json()) as { models: ModelInfo[] }).models;
}

/** Runs `text` to its end and returns its `RUN_STARTED` event's model. */
async function startedModel(server: TestServer, text: string): Promise<unknown> {
  const { runId } = await server.createRun('alice', text);
  const { events } = await readSse(await server.request(`/runs/${runId}/events?after=0`));
  const started = events.find((event): event is EventEnvelope<'RUN_STARTED'> => event.type === 'RUN_STARTED');
  expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  return started?.data.model;
}

describe('the models bootstrap lists and runs name', () => {
  it("are the engine's model when the handler is given none: an AI SDK model by its id", async () => {
    const server = await serve(createRunEngine({ model: fromAiSdk(openAiModel()) }));
    expect(await bootstrapModels(server)).toEqual([
      {
        modelId: 'gpt-4o-mini',
        label: 'gpt-4o-mini (openai.responses)',
        default: true,
        available: true,
        reasoningOptions: [...REASONING_EFFORTS],
      },
    ]);
    expect(await startedModel(server, 'Hi')).toEqual({ modelId: 'gpt-4o-mini' });
  });

  it('stay the scripted model, as before, for the default engine', async () => {
    const engine = createRunEngine();
    expect(engine.models).toEqual(DEFAULT_MODELS);
    const server = await serve(engine);
    expect(await bootstrapModels(server)).toEqual(DEFAULT_MODELS);
    expect(await startedModel(server, '/echo hi')).toEqual({ modelId: 'scripted' });
  });

  it('are the remote agent for an AG-UI engine, not the scripted model', () => {
    expect(createAgUiEngine({ url: 'http://127.0.0.1:1/agent' }).models).toEqual([
      { modelId: 'ag-ui', label: 'AG-UI agent', default: true, available: true, reasoningOptions: [] },
    ]);
  });

  it("are the handler's `models` when it is given some, and the scripted model for an engine that names none", async () => {
    const listed: ModelInfo[] = [{ modelId: 'house-model', label: 'House', default: true, available: true }];
    const given = await serve(createRunEngine({ model: fromAiSdk(openAiModel()) }), listed);
    expect(await bootstrapModels(given)).toEqual(listed);
    expect(await startedModel(given, 'Hi')).toEqual({ modelId: 'house-model' });

    const engine = createRunEngine();
    const bare = await serve({ start: (handle) => engine.start(handle) });
    expect(await bootstrapModels(bare)).toEqual(DEFAULT_MODELS);
  });
});
