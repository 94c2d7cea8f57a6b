import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import { createDemoStaticHandler } from '../../demo/serve-demo.ts';
import { createDemoServer } from '../../scripts/demo-server.ts';
import { readModelsFromEnv } from '../../scripts/models-from-env.ts';
import { createRunEngine } from '../../src/server/agent-loop/create-run-engine.ts';
import { fromAiSdk } from '../../src/server/models/ai-sdk-model.ts';
import { defaultDatabasePath, openStorageFromEnv } from '../../src/server/storage/open-storage-from-env.ts';
import { createDemoHooks } from '../../src/server/tools/demo-hooks.ts';
import { createDemoTools } from '../../src/server/tools/demo-tools.ts';
import { createDemoWidgetTools, demoWidgetAction } from '../../src/server/tools/demo-widgets.ts';

// The demo server as `npm start` wires it (pages, demo tools and hooks, storage from REDIS_URL or
// AGENT_CHAT_DB, AGENT_LIMITS) but with the model behind the AI SDK: `fromAiSdk` over
// @ai-sdk/openai's Chat Completions model at OPENAI_BASE_URL (AGENT_MODEL, OPENAI_API_KEY), which
// `AGENT_MODEL_PROVIDER=openai` cannot select (it takes the Responses API). Prints its URL once
// listening; stops on SIGTERM or SIGINT.
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const env = process.env;
const baseURL = env['OPENAI_BASE_URL'];
const modelId = env['AGENT_MODEL'];
if (!baseURL || !modelId) throw new Error('ai-sdk-chat-server needs OPENAI_BASE_URL and AGENT_MODEL.');
const model = fromAiSdk(createOpenAI({ baseURL, apiKey: env['OPENAI_API_KEY'] ?? 'x' }).chat(modelId));
const opened = await openStorageFromEnv(env, defaultDatabasePath(rootDir));
const engine = createRunEngine({
  model,
  tools: [...createDemoTools(), ...createDemoWidgetTools()],
  hooks: createDemoHooks(),
  onWidgetAction: demoWidgetAction,
});
const models = readModelsFromEnv(env, engine);
const demo = await createDemoServer({
  host: '127.0.0.1',
  port: Number(env['PORT'] ?? 0),
  engine,
  ...(models === undefined ? {} : { models }),
  limits: { runsPerMinute: 1_000, readsPerMinute: 10_000 },
  staticHandler: createDemoStaticHandler({ rootDir }),
  storage: {
    storage: opened.storage,
    ...(opened.attachments === undefined ? {} : { attachments: opened.attachments }),
  },
});
console.log(`ai-sdk chat server listening on ${demo.url}/ (data: ${opened.location})`);

const stop = (): void => {
  void demo
    .close()
    .then(() => opened.storage.close())
    .then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
