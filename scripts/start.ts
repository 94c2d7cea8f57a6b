import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDemoStaticHandler } from '../demo/serve-demo.ts';
import { createRunEngine } from '../src/server/agent-loop/create-run-engine.ts';
import { createModelFromEnv } from '../src/server/models/create-model-from-env.ts';
import { ensureBuild } from './build/ensure-build.ts';
import { createDemoServer } from './demo-server.ts';
import { readLimitsFromEnv } from './limits-from-env.ts';

// `npm start`: the demo page and the reference server with the offline scripted model.
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
ensureBuild(rootDir);
const demo = await createDemoServer({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 4176),
  engine: createRunEngine({ model: createModelFromEnv(process.env) }),
  limits: readLimitsFromEnv(process.env),
  staticHandler: createDemoStaticHandler({ rootDir }),
});
console.log(`agent-chat demo: ${demo.url}/  (protocol at ${demo.url}/api/agent/v1/bootstrap)`);

const stop = (): void => {
  void demo.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
