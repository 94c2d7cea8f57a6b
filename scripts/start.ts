import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDemoStaticHandler } from '../demo/serve-demo.ts';
import { ensureBuild } from './build/ensure-build.ts';
import { startDemoFromEnv } from './demo-from-env.ts';
import { exitOnStartupError } from './startup-error.ts';

// `npm start`: the demo page and the reference server with the offline scripted model (or a real
// model, or a remote AG-UI agent with AGUI_AGENT_URL: scripts/engine-from-env.ts); data is kept in
// .data/agent-chat.sqlite (AGENT_CHAT_DB sets another file, :memory: keeps nothing).
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The URL comes first: the size table of a build this start needs only with `npm start -- --sizes`.
ensureBuild(rootDir, { quiet: !process.argv.includes('--sizes') });
const demo = await startDemoFromEnv({
  env: process.env,
  rootDir,
  staticHandler: createDemoStaticHandler({ rootDir }),
}).catch(exitOnStartupError);

const stop = (): void => {
  void demo.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
