import type { IncomingMessage, ServerResponse } from 'node:http';
import { defaultDatabasePath, openStorageFromEnv } from '../src/server/storage/open-storage-from-env.ts';
import type { DemoServer } from './demo-server.ts';
import { createDemoServer } from './demo-server.ts';
import { createEngineFromEnv } from './engine-from-env.ts';
import { readLimitsFromEnv } from './limits-from-env.ts';
import { readModelsFromEnv } from './models-from-env.ts';
import { readObservabilityFromEnv } from './observability-from-env.ts';

/**
 * Starts the demo server as `npm start` configures it from the environment: `HOST`/`PORT`, the
 * engine (`createEngineFromEnv`: the scripted or a real model, or a remote AG-UI agent) and the
 * models bootstrap lists (its model, `readModelsFromEnv`), `AGENT_LIMITS`, and
 * storage (`DATABASE_URL`, `REDIS_URL` or `REDIS_CLUSTER_NODES`, else `AGENT_CHAT_DB`, default
 * `.data/agent-chat.sqlite` under `rootDir`, with its attachment store; `AGENT_CHAT_IDENTITY_SECRET`; `AGENT_CHAT_LEASE_TTL_MS`), and
 * what is observed (`readObservabilityFromEnv`: probes, `AGENT_CHAT_METRICS`, `AGENT_CHAT_LOG_LEVEL`).
 * Prints the URL line once listening; `close()` also closes the database.
 */
export async function startDemoFromEnv(options: {
  env: Record<string, string | undefined>;
  rootDir: string;
  staticHandler?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}): Promise<DemoServer> {
  const { env } = options;
  const engine = createEngineFromEnv(env);
  const models = readModelsFromEnv(env, engine);
  const opened = await openStorageFromEnv(env, defaultDatabasePath(options.rootDir));
  const demo = await createDemoServer({
    host: env['HOST'] ?? '127.0.0.1',
    port: Number(env['PORT'] ?? 4176),
    engine,
    limits: readLimitsFromEnv(env),
    ...(models === undefined ? {} : { models }),
    observability: readObservabilityFromEnv(env),
    ...(options.staticHandler === undefined ? {} : { staticHandler: options.staticHandler }),
    storage: {
      storage: opened.storage,
      ...(opened.attachments === undefined ? {} : { attachments: opened.attachments }),
      ...(opened.identitySecret === undefined ? {} : { identitySecret: opened.identitySecret }),
      ...(opened.leaseTtlMs === undefined ? {} : { leaseTtlMs: opened.leaseTtlMs }),
    },
  });
  // Open the page first: it signs the browser in as a demo user, so the API answers 401 before that.
  console.log(
    `agent-chat demo: open ${demo.url}/ in your browser (it signs you in as a demo user; the API at ${demo.url}/api/agent answers 401 until then; data: ${opened.location})`,
  );
  return {
    ...demo,
    async close() {
      await demo.close();
      await opened.storage.close();
    },
  };
}
