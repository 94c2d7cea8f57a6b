import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoFromEnv } from '../../scripts/demo-from-env.ts';

// The demo server as `npm start` wires it (storage, model and limits from the environment) but
// without the pages, so tests can run it as a real process before any build exists.
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const demo = await startDemoFromEnv({ env: process.env, rootDir });
const stop = (): void => {
  void demo.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
