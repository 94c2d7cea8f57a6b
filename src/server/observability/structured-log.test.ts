import { afterEach, describe, expect, it } from 'vitest';
import { createRunEngine } from '../agent-loop/create-run-engine.ts';
import { createScriptedModel } from '../models/scripted-model.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import type { TestServer, TestServerOptions } from '../test-support/start-test-server.ts';
import { freshKey, startTestServer } from '../test-support/start-test-server.ts';
import type { LogRecord } from './structured-log.ts';

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(
  options: Omit<TestServerOptions, 'engine'> = {},
): Promise<{ server: TestServer; lines: LogRecord[] }> {
  const lines: LogRecord[] = [];
  const server = await startTestServer({
    engine: createRunEngine({ model: createScriptedModel({ delayMs: 1 }), limits: { retryBaseMs: 1 }, log: () => {} }),
    logLevel: 'info',
    log: (record) => lines.push(record),
    ...options,
  });
  open.push(server);
  return { server, lines };
}

async function runToEnd(server: TestServer, text: string): Promise<{ runId: string; requestId: string | null }> {
  const response = await server.request('/runs', {
    body: { agentVersionId: 'agv_demo_1', input: { content: [{ type: 'text', text }] } },
    headers: { 'idempotency-key': freshKey() },
  });
  const { runId } = (await response.json()) as { runId: string };
  await (await server.request(`/runs/${runId}/events`)).text();
  return { runId, requestId: response.headers.get('x-request-id') };
}

describe('structured log lines', () => {
  it('end each run with one JSON line: request, run and hashed subject ids, never the user or their text', async () => {
    const { server, lines } = await serve();
    const { runId, requestId } = await runToEnd(server, '/echo my secret plans');
    const ended = lines.filter((line) => line.event === 'run_ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ level: 'info', requestId, runId, outcome: 'success', rounds: 1, toolCalls: 0 });
    expect(ended[0]?.subject).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(typeof ended[0]?.durationMs).toBe('number');
    expect(Date.parse(ended[0]?.time ?? '')).not.toBeNaN();

    const again = await runToEnd(server, '/echo more');
    expect(lines.find((line) => line.runId === again.runId)?.subject).toBe(ended[0]?.subject);
    const all = JSON.stringify(lines);
    expect(all).not.toContain('secret');
    expect(all).not.toContain('alice');
  });

  it('log each model retry with the model, attempt and code', async () => {
    const { server, lines } = await serve();
    const { runId } = await runToEnd(server, '/error');
    expect(lines.filter((line) => line.event === 'model_retry')).toEqual([
      expect.objectContaining({
        level: 'warn',
        runId,
        model: 'scripted',
        attempt: 1,
        outcome: 'error',
        code: 'MODEL_ERROR',
      }),
    ]);
    expect(lines.find((line) => line.event === 'run_ended')).toMatchObject({ runId, outcome: 'success', rounds: 1 });
  });

  it('log request errors and storage failures without their messages, and still tell onError', async () => {
    const told: unknown[] = [];
    const memory = createMemoryStorage();
    const { server, lines } = await serve({
      storage: { ...memory, getSession: () => Promise.reject(new Error('disk on fire at /home/alice')) },
      onError: (error) => told.push(error),
    });
    const response = await server.request('/sessions/ses_missing');
    expect(response.status).toBe(500);
    const requestId = response.headers.get('x-request-id');
    expect(lines.filter((line) => line.level === 'error').map((line) => [line.event, line.requestId])).toEqual([
      ['storage_failed', requestId],
      ['request_failed', requestId],
    ]);
    expect(lines.find((line) => line.event === 'storage_failed')).toMatchObject({
      operation: 'getSession',
      errorType: 'Error',
    });
    expect(JSON.stringify(lines)).not.toContain('disk on fire');
    expect(told.map((error) => (error as Error).message)).toEqual(['disk on fire at /home/alice']);
  });

  it('carry messages and stacks only when logSensitive is on', async () => {
    const { server, lines } = await serve({
      logSensitive: true,
      authenticate: () => {
        throw new Error('session store unreachable');
      },
    });
    expect((await server.request('/bootstrap')).status).toBe(500);
    expect(lines.find((line) => line.event === 'request_failed')).toMatchObject({
      errorMessage: 'session store unreachable',
      stack: expect.stringContaining('structured-log.test.ts'),
    });
  });

  it('follow the level: warn drops run endings, AGENT_CHAT_LOG_LEVEL applies when the option is unset', async () => {
    const quiet = await serve({ logLevel: 'warn' });
    await runToEnd(quiet.server, 'hi');
    expect(quiet.lines).toEqual([]);

    process.env['AGENT_CHAT_LOG_LEVEL'] = 'debug';
    try {
      const chatty = await serve({ logLevel: undefined });
      const response = await chatty.server.request('/runs/run_missing');
      expect(response.status).toBe(404);
      expect(chatty.lines).toEqual([
        expect.objectContaining({ level: 'debug', event: 'request_refused', status: 404, code: 'NOT_FOUND' }),
      ]);
    } finally {
      delete process.env['AGENT_CHAT_LOG_LEVEL'];
    }
  });
});
