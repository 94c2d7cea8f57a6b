import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig } from 'vitest/config';
import { chromiumLaunchOptions } from './scripts/chromium.ts';

/**
 * The client's loopback suite against the real server (test/support/start-reference-server.ts),
 * run again with the fetch handler mounted in Hono on `@hono/node-server` (project `core-hono`).
 */
const REFERENCE_SERVER_SUITE = [
  'src/core/client/agent-client.test.ts',
  'src/core/client/agent-client-stop.test.ts',
  'src/core/client/conversations.test.ts',
  'src/core/client/older-messages.loopback.test.ts',
  'src/core/client/proposals.loopback.test.ts',
  'src/core/client/tab-sync.loopback.test.ts',
  'src/core/tools/tool-runner.loopback.test.ts',
  'src/core/transport/rate-limit.loopback.test.ts',
];

/**
 * The server's multi-process suites (project `server-integration`): a test goes here when it runs
 * several server processes on one store (scale-out, Redis Cluster shards), or starts, kills or
 * restarts processes of its own (servers, redis-server, Postgres). Everything else in `src/server`
 * stays in `server`. `npm test` and `npm run test:server` run both; `npm run check` runs `server` only.
 */
const SERVER_INTEGRATION_SUITE = [
  'src/server/storage/*-scale-out.test.ts',
  'src/server/storage/*restart*.test.ts',
  'src/server/storage/redis-cluster-shards.test.ts',
  'src/server/storage/**/private-*-server.test.ts',
];

/** The private redis-server, Redis Cluster and Postgres (`inject('redisUrl')` and the like), only for the projects whose tests use them. */
const SERVER_GLOBAL_SETUP = ['./test/support/redis-global-setup.ts', './test/support/postgres-global-setup.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          environment: 'node',
          include: ['src/core/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'core-hono',
          environment: 'node',
          include: REFERENCE_SERVER_SUITE,
          env: { AGENT_CHAT_REFERENCE_MOUNT: 'hono' },
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERVER_INTEGRATION_SUITE],
          globalSetup: SERVER_GLOBAL_SETUP,
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server-integration',
          environment: 'node',
          include: SERVER_INTEGRATION_SUITE,
          globalSetup: SERVER_GLOBAL_SETUP,
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'scripts',
          environment: 'node',
          include: ['scripts/**/*.test.ts'],
          // The lint-zone tests build a typed ESLint program on their first case: seconds on a busy machine.
          testTimeout: 30_000,
        },
      },
      {
        // The parts import their modules, as in the ESM build (src/parts/script-tag-build.d.ts).
        define: { __SCRIPT_TAG_BUILD__: 'false' },
        // Pre-bundled up front so a first run never reloads a test file mid-run to optimize one.
        optimizeDeps: {
          include: [
            'lit',
            'lit/directive.js',
            'lit/directive-helpers.js',
            'marked',
            'dompurify',
            'highlight.js/lib/core',
            'highlight.js/lib/languages/*',
            'axe-core',
            'react',
            'react-dom/client',
            '@lit/react',
          ],
        },
        test: {
          name: 'ui',
          // The widget, its React wrapper, its code highlighter and the browser-only tools module (IndexedDB, Web Locks) run in real Chromium.
          include: [
            'src/ui/**/*.test.ts',
            'src/highlight/**/*.test.ts',
            'src/tools/**/*.test.ts',
            'src/react/**/*.test.ts',
          ],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions() }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
