import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemClock } from '../core/clock.ts';
import { reduceRunEvents } from '../core/state/run-reducer.ts';
import { createScriptedTestEngine } from './test-support/manual-engine.ts';
import type { TestServer } from './test-support/start-test-server.ts';
import { freshKey, readSse, startTestServer } from './test-support/start-test-server.ts';
import { createAgentHandler } from './create-agent-handler.ts';

let server: TestServer;

beforeAll(async () => {
  let now = Date.parse('2026-11-29T13:40:00.000Z');
  server = await startTestServer({
    engine: createScriptedTestEngine(),
    clock: { ...createSystemClock(), now: () => (now += 1) },
    identityFor: (subject) => `idn_${subject.id}`,
  });
});
afterAll(() => server.close());

describe('bootstrap', () => {
  it("publishes the agent's avatarUrl when the handler has one, and refuses one that is not http(s)", async () => {
    const withAvatar = await startTestServer({
      engine: createScriptedTestEngine(),
      agent: { agentId: 'agt_demo', versionId: 'agv_demo_1', name: 'Assistant', avatarUrl: '/agent.png' },
    });
    try {
      const body = (await (await withAvatar.request('/bootstrap')).json()) as { agent: unknown };
      expect(body.agent).toEqual({
        agentId: 'agt_demo',
        versionId: 'agv_demo_1',
        name: 'Assistant',
        status: 'active',
        avatarUrl: '/agent.png',
      });
    } finally {
      await withAvatar.close();
    }
    expect(() =>
      createAgentHandler({
        engine: createScriptedTestEngine(),
        authenticate: () => null,
        agent: { agentId: 'agt_x', versionId: 'agv_x', name: 'X', avatarUrl: 'javascript:alert(1)' },
      }),
    ).toThrow('createAgentHandler: agent.avatarUrl must be an http(s) URL or a path, e.g. "/avatar.svg".');
  });

  it('publishes protocol, identity, agent, models, capabilities, limits and stream settings', async () => {
    const response = await server.request('/bootstrap', { headers: { 'x-request-id': 'req_client.1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toBe('req_client.1');
    expect(await response.json()).toEqual({
      protocol: { version: '1.0', supported: ['1'] },
      identity: { identityId: 'idn_alice', displayName: 'alice' },
      agent: { agentId: 'agt_demo', versionId: 'agv_demo_1', name: 'Assistant', status: 'active' },
      models: [
        {
          modelId: 'scripted',
          label: 'Scripted (offline)',
          default: true,
          available: true,
          reasoningOptions: ['low', 'medium', 'high'],
        },
      ],
      capabilities: {
        reasoning: { visible: true },
        approvals: { supported: true, approveWithEdits: false },
        inputs: { duringRun: true, contentTypes: ['text'] },
        cancel: true,
        sessions: { list: true, rename: true, delete: true },
        stream: { poll: false, createAndStream: false },
        browserTools: { supported: false },
        attachments: { supported: false },
      },
      limits: {
        maxInputChars: 32000,
        maxInputsPerRun: 20,
        maxEventBytes: 65536,
        maxRequestBytes: 262144,
        runMaxDurationSec: 1800,
        interruptDefaultTtlSec: 900,
        eventRetentionSec: 86400,
        idempotencyKeyTtlSec: 86400,
        maxRounds: 8,
        runsPerMinute: 30,
        maxActiveRuns: 5,
        inputsPerMinute: 60,
        interruptAnswersPerMinute: 60,
        cancelsPerMinute: 60,
        readsPerMinute: 600,
        sessionChangesPerMinute: 60,
        feedbackPerMinute: 60,
        maxContentParts: 16,
        maxContextRefs: 20,
        maxContextRefChars: 256,
        maxContextTitleChars: 256,
        maxContextUrlChars: 2048,
        maxIdChars: 128,
        maxReasonChars: 500,
        maxTitleChars: 120,
        maxCommentChars: 1000,
        maxInstructionChars: 4000,
        maxFocusChars: 32000,
        sessionIdleTtlSec: 604800,
        maxSessionsPerIdentity: 100,
        maxRunsPerSession: 500,
      },
      stream: { heartbeatSec: 15, clientIdleTimeoutSec: 45, maxStreamDurationSec: 300, retryMs: 3000 },
    });
  });
});

describe('a run from create to its last event', () => {
  it('creates with 201 + Location, streams the log as SSE, and snapshots the reducer over it', async () => {
    const key = freshKey();
    const response = await server.request('/runs', {
      body: {
        agentVersionId: 'agv_demo_1',
        input: { clientMessageId: 'cm_1', content: [{ type: 'text', text: 'Hi there' }] },
      },
      headers: { 'idempotency-key': `"${key}"` },
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Record<string, string>;
    const runId = created.runId as string;
    expect(response.headers.get('location')).toBe(`/api/agent/v1/runs/${runId}`);
    expect(created).toEqual({
      runId,
      sessionId: created.sessionId,
      status: 'queued',
      lastSeq: 1,
      resumeCursor: '1',
      eventsUrl: `/api/agent/v1/runs/${runId}/events`,
      userMessageId: created.userMessageId,
      createdAt: created.createdAt,
    });
    expect(runId).toMatch(/^run_[0-9A-Z]{26}$/);

    const stream = await server.request(`/runs/${runId}/events?after=0`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('content-encoding')).toBeNull();
    const read = await readSse(stream);
    expect(read.text.startsWith('retry: 3000\n: open\n\n')).toBe(true);
    expect(read.events.map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'RUN_STATUS_CHANGED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(read.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(read.ids).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(read.events[0]?.data).toEqual({
      protocolVersion: '1.0',
      agent: { agentId: 'agt_demo', versionId: 'agv_demo_1' },
      model: { modelId: 'scripted' },
      input: {
        messageId: created.userMessageId,
        clientMessageId: 'cm_1',
        content: [{ type: 'text', text: 'Hi there' }],
      },
      traceId: expect.stringMatching(/^trc_/) as unknown,
    });
    expect(read.text).not.toContain('event:');

    const snapshot = await server.request(`/runs/${runId}`);
    const resource = (await snapshot.json()) as Record<string, unknown>;
    const reduced = reduceRunEvents(read.events);
    expect(resource).toEqual({
      ...reduced,
      createdAt: new Date(reduced.createdAt as number).toISOString(),
      updatedAt: new Date(reduced.updatedAt as number).toISOString(),
    });
    expect(resource.status).toBe('completed');
    expect(resource.resumeCursor).toBe('9');
  });
});

describe('security headers', () => {
  it('every kind of API answer carries nosniff and no-store (SSE also no-transform)', async () => {
    const { runId } = await server.createRun('alice');
    const answers: [string, Response, string][] = [
      ['json', await server.request('/bootstrap'), 'no-store'],
      ['problem', await server.request('/nowhere'), 'no-store'],
      ['problem 401', await server.request('/bootstrap', { user: null }), 'no-store'],
    ];
    const stream = await server.request(`/runs/${runId}/events`);
    const events = await readSse(stream);
    answers.push(['sse', stream, 'no-store, no-transform']);
    answers.push(['204', await server.request(`/runs/${runId}/events?after=${events.events.length}`), 'no-store']);
    expect(
      answers.map(([kind, response]) => [
        kind,
        response.headers.get('x-content-type-options'),
        response.headers.get('cache-control'),
      ]),
    ).toEqual(answers.map(([kind, , cache]) => [kind, 'nosniff', cache]));
    expect(answers.map(([, response]) => response.status)).toEqual([200, 404, 401, 200, 204]);
  });
});
