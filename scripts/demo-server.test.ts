import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoStaticHandler, DEMO_CSP, STRICT_CSP } from '../demo/serve-demo.ts';
import { createRunEngine } from '../src/server/agent-loop/create-run-engine.ts';
import { createScriptedModel } from '../src/server/models/scripted-model.ts';
import { sendRawHttp } from '../test/support/raw-http.ts';
import type { DemoServer } from './demo-server.ts';
import { createDemoServer } from './demo-server.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let demo: DemoServer;
const errors: unknown[] = [];

beforeAll(async () => {
  demo = await createDemoServer({
    host: '127.0.0.1',
    port: 0,
    engine: createRunEngine({
      model: createScriptedModel({ delayMs: 1 }),
      limits: { deltaFlushMs: 0, deltaFlushBytes: 1 },
      log: () => undefined,
    }),
    staticHandler: createDemoStaticHandler({ rootDir }),
    onError: (error) => errors.push(error),
  });
});
afterAll(() => demo.close());

const port = (): number => Number(new URL(demo.url).port);

/** Signs in as a fresh demo user (the cookie of the first page visit) and runs one scripted answer. */
async function completeDemoRun(): Promise<string[]> {
  const page = await fetch(`${demo.url}/`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const bootstrap = (await (await fetch(`${demo.url}/api/agent/v1/bootstrap`, { headers: { cookie } })).json()) as {
    identity: { identityId: string };
  };
  const headers = { cookie, 'x-agent-identity': bootstrap.identity.identityId, 'content-type': 'application/json' };
  const created = await fetch(`${demo.url}/api/agent/v1/runs`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': `demo-test-${Date.now()}-abcdefgh` },
    body: JSON.stringify({
      agentVersionId: 'agv_demo_1',
      input: { content: [{ type: 'text', text: '/echo still here' }] },
    }),
  });
  expect(created.status).toBe(201);
  const { eventsUrl } = (await created.json()) as { eventsUrl: string };
  const text = await (await fetch(`${demo.url}${eventsUrl}`, { headers })).text();
  return [...text.matchAll(/^data: (.*)$/gm)].map((match) => (JSON.parse(match[1] as string) as { type: string }).type);
}

describe('the demo server (npm start) against hostile bytes', () => {
  it('answers malformed targets and unparsable requests with problems, then serves a full run', async () => {
    const cases: { bytes: string; status: number }[] = [
      { bytes: 'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 400 },
      {
        bytes: 'GET http://x:99999/api/agent/v1/bootstrap HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        status: 400,
      },
      { bytes: 'GET http://x:99999/index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 400 },
      { bytes: 'GET /\x7f HTTP/1.1\r\nHost: x\r\n\r\n', status: 400 },
      { bytes: 'G\x00T / HTTP/1.1\r\n\r\n', status: 400 },
    ];
    for (const { bytes, status } of cases) {
      const answer = await sendRawHttp(port(), bytes);
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect((JSON.parse(answer.body) as { code: string }).code).toBe('VALIDATION_FAILED');
    }
    const types = await completeDemoRun();
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect(errors).toEqual([]);
  });
});

describe('demo page headers', () => {
  const pages: { path: string; csp: string }[] = [
    { path: '/', csp: DEMO_CSP },
    { path: '/index.html', csp: DEMO_CSP },
    { path: '/strict.html', csp: STRICT_CSP },
    { path: '/gallery.html', csp: DEMO_CSP },
  ];
  for (const { path, csp } of pages) {
    it(`${path} carries its CSP (framing refused), no-referrer and nosniff`, async () => {
      const response = await fetch(`${demo.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(csp);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });
  }

  it('/esm.html allows exactly its import map inline, and no framing', async () => {
    const response = await fetch(`${demo.url}/esm.html`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/]{43}='; style-src 'self'; /);
    expect(csp.endsWith("frame-ancestors 'none'")).toBe(true);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('the status page of a demo server without pages is locked down too', async () => {
    const bare = await createDemoServer({ host: '127.0.0.1', port: 0, engine: createRunEngine() });
    try {
      const response = await fetch(`${bare.url}/`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    } finally {
      await bare.close();
    }
  });
});
