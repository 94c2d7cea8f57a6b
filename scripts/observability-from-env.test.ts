import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScrape } from '../test/support/scrape-metrics.ts';
import { startDemoFromEnv } from './demo-from-env.ts';
import { readObservabilityFromEnv } from './observability-from-env.ts';

describe('readObservabilityFromEnv (npm start)', () => {
  it('turns probes on, metrics on with AGENT_CHAT_METRICS=1 (with a token when given), and logs at info unless told', () => {
    expect(readObservabilityFromEnv({})).toEqual({ probes: true, logLevel: 'info' });
    expect(readObservabilityFromEnv({ AGENT_CHAT_METRICS: '1', AGENT_CHAT_LOG_LEVEL: 'WARN' })).toEqual({
      probes: true,
      logLevel: 'warn',
      metrics: true,
    });
    expect(readObservabilityFromEnv({ AGENT_CHAT_METRICS: '1', AGENT_CHAT_METRICS_TOKEN: 's3cret' })).toMatchObject({
      metrics: { bearerToken: 's3cret' },
    });
  });

  it('refuses values it does not understand, naming the variable', () => {
    expect(() => readObservabilityFromEnv({ AGENT_CHAT_METRICS: 'yes' })).toThrow('AGENT_CHAT_METRICS must be 1');
    expect(() => readObservabilityFromEnv({ AGENT_CHAT_LOG_LEVEL: 'loud' })).toThrow('AGENT_CHAT_LOG_LEVEL must be');
  });

  it('npm start serves /healthz, /readyz and, with AGENT_CHAT_METRICS=1, /metrics', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agent-chat-ops-'));
    const demo = await startDemoFromEnv({
      env: {
        PORT: '0',
        AGENT_CHAT_DB: join(folder, 'demo.sqlite'),
        AGENT_CHAT_METRICS: '1',
        AGENT_CHAT_LOG_LEVEL: 'silent',
      },
      rootDir: folder,
    });
    try {
      expect((await fetch(`${demo.url}/healthz`)).status).toBe(200);
      expect(await (await fetch(`${demo.url}/readyz`)).json()).toEqual({
        status: 'ready',
        checks: { storage: 'ok', handler: 'ok' },
      });
      const scrape = parseScrape(await (await fetch(`${demo.url}/metrics`)).text());
      expect(scrape.value('agent_chat_runs_started_total')).toBe(0);
      expect(scrape.families.some((family) => family.name === 'process_cpu_seconds_total')).toBe(true);
    } finally {
      await demo.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
