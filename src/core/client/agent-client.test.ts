import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, RunResource } from '../protocol.ts';
import { createAgentClient } from './agent-client.ts';
import type { AgentClientHandle, AgentClientOptions } from './agent-client-types.ts';
import type { ClientState } from './client-state.ts';
import { createRecordingFetch } from '../../../test/support/record-fetch.ts';
import type { RecordingFetch } from '../../../test/support/record-fetch.ts';
import { startReferenceServer } from '../../../test/support/start-reference-server.ts';
import type { ReferenceServer } from '../../../test/support/start-reference-server.ts';
import { startTcpFaultProxy } from '../../../test/support/tcp-fault-proxy.ts';
import type { TcpFaultProxy } from '../../../test/support/tcp-fault-proxy.ts';
import { isSettledState as isSettled, waitForState as waitFor } from '../../../test/support/wait-for-state.ts';

let server: ReferenceServer;
let proxy: TcpFaultProxy;
let recorder: RecordingFetch;
const clients: AgentClientHandle[] = [];
const extraServers: ReferenceServer[] = [];

beforeEach(async () => {
  server = await startReferenceServer();
  proxy = await startTcpFaultProxy({ upstreamPort: server.port });
  recorder = createRecordingFetch();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.dispose();
  // A different-body reuse of a key never happens, in any test.
  const bodyByKey = new Map<string, string | null>();
  for (const request of recorder.requests) {
    if (request.idempotencyKey === null) continue;
    expect(bodyByKey.get(request.idempotencyKey) ?? request.body).toBe(request.body);
    bodyByKey.set(request.idempotencyKey, request.body);
  }
  await proxy.close();
  await server.close();
  for (const extra of extraServers.splice(0)) await extra.close();
});

function newClient(options: Partial<AgentClientOptions> = {}): AgentClientHandle {
  const client = createAgentClient({
    endpoint: `http://127.0.0.1:${proxy.port}/api/agent`,
    fetch: recorder.fetch,
    random: () => 0,
    ...options,
  });
  clients.push(client);
  return client;
}

async function serverSnapshot(runId: string, from: ReferenceServer = server): Promise<RunResource> {
  const response = await fetch(`http://127.0.0.1:${from.port}/api/agent/v1/runs/${runId}`);
  return (await response.json()) as RunResource;
}

const isCreate = (exchange: { method: string; path: string }): boolean =>
  exchange.method === 'POST' && exchange.path === '/api/agent/v1/runs';
const isEvents = (exchange: { method: string; path: string }): boolean =>
  exchange.method === 'GET' && /\/events(\?|$)/.test(exchange.path);

/** Sends `text` through a fresh client, optionally with a fault armed, and checks the run end to end. */
async function sendAndCompare(
  text: string,
  arm?: () => void,
  options: Partial<AgentClientOptions> = {},
): Promise<{ events: number[]; state: ClientState }> {
  const events: number[] = [];
  const client = newClient({ ...options, onEvent: (event: EventEnvelope) => events.push(event.seq) });
  await client.bootstrap();
  const createsBefore = proxy.count(isCreate);
  arm?.();
  const { runId } = await client.send(text);
  const state = await waitFor(client, isSettled, `run ${runId} to settle`);
  const snapshot = await serverSnapshot(runId);
  expect(state.messages).toEqual(snapshot.messages);
  expect(state.toolCalls).toEqual(snapshot.toolCalls);
  expect(state.interrupts).toEqual(snapshot.interrupts);
  expect(state.run).toEqual({ runId, status: snapshot.status, lastSeq: snapshot.lastSeq });
  expect(events).toEqual(Array.from({ length: snapshot.lastSeq }, (_, i) => i + 1));
  expect(proxy.count(isCreate) - createsBefore).toBe(1);
  return { events, state };
}

/** Byte offsets in a recorded events response where each SSE frame ends. */
function frameEnds(response: Buffer): number[] {
  const ends: number[] = [];
  for (let at = response.indexOf('\n\n'); at >= 0; at = response.indexOf('\n\n', at + 2)) ends.push(at + 2);
  return ends;
}

describe('AgentClient against the reference server', () => {
  const echoText = '/echo Cut me anywhere and I still arrive whole.';

  /** Records one clean /echo run through the proxy and returns where its SSE frames end. */
  async function recordEchoFrameEnds(): Promise<number[]> {
    await sendAndCompare(echoText);
    const ends = frameEnds(proxy.exchanges.filter(isEvents).at(-1)?.response ?? Buffer.alloc(0));
    expect(ends.length).toBeGreaterThan(12);
    return ends;
  }

  it('ends with the server snapshot for a cut inside every frame of a recorded /echo run, applying each event once', async () => {
    for (const end of await recordEchoFrameEnds()) {
      await sendAndCompare(echoText, () => proxy.addFault({ match: isEvents, afterBytes: end - 3, kind: 'cut' }));
    }
  });

  it('ends with the server snapshot for a cut on every frame boundary of a recorded /echo run', async () => {
    for (const end of await recordEchoFrameEnds()) {
      await sendAndCompare(echoText, () => proxy.addFault({ match: isEvents, afterBytes: end, kind: 'cut' }));
    }
  });

  it('survives several cuts across a /long run', async () => {
    await sendAndCompare('/long 600', () => {
      for (const afterBytes of [400, 900, 1500, 2600]) proxy.addFault({ match: isEvents, afterBytes, kind: 'cut' });
    });
    expect(proxy.count(isEvents)).toBe(5);
  });

  it('trips the watchdog on a stalled stream and resumes from the cursor', async () => {
    const before = proxy.exchanges.length;
    const { state } = await sendAndCompare(
      '/echo stalled but not stuck',
      () => proxy.addFault({ match: isEvents, afterBytes: 700, kind: 'stall' }),
      { idleTimeoutMs: 300 },
    );
    expect(state.connection).toBe('idle');
    expect(proxy.exchanges.slice(before).filter(isEvents).length).toBe(2);
  });

  it('ends a run lost to a server restart with a clear NOT_FOUND, not a hang', async () => {
    const client = newClient();
    await client.send('/slow');
    await waitFor(
      client,
      (s) => s.messages.some((m) => m.role === 'assistant' && m.content.length > 0),
      'the first delta',
    );
    const restarted = await startReferenceServer();
    extraServers.push(restarted);
    proxy.setUpstream(restarted.port);
    proxy.cutAll();
    const state = await waitFor(client, (s) => s.connection === 'error', 'the error');
    expect(state.error).toMatchObject({ code: 'NOT_FOUND', source: 'stream' });
  });

  it('retries a create answered 503 then 429 with Retry-After using the same key and body, making one run', async () => {
    const client = newClient();
    await client.bootstrap();
    const isPost = (r: { method: string; path: string }): boolean => isCreate(r);
    const retryLater = (status: number) => () =>
      new Response(
        JSON.stringify({ code: status === 429 ? 'RATE_LIMITED' : 'AGENT_UNAVAILABLE', status, title: 'later' }),
        {
          status,
          headers: { 'content-type': 'application/problem+json', 'retry-after': '0' },
        },
      );
    recorder.inject({ match: isPost, isForwarded: true, response: retryLater(503) });
    recorder.inject({ match: isPost, isForwarded: false, response: retryLater(429) });
    const { runId } = await client.send('/echo once only');
    const state = await waitFor(client, isSettled, 'the run to settle');
    const creates = recorder.requests.filter(isPost);
    expect(creates.length).toBe(3);
    expect(new Set(creates.map((r) => `${r.idempotencyKey} ${r.body}`)).size).toBe(1);
    expect(await server.handler.store.listSessionRunIds(state.sessionId as string)).toEqual([runId]);
  });

  it('refuses a second send while the first is unanswered', async () => {
    const client = newClient();
    const first = client.send('/echo first');
    await expect(client.send('/echo second')).rejects.toMatchObject({ code: 'SEND_IN_PROGRESS' });
    await first;
    await waitFor(client, isSettled, 'the run to settle');
    expect(proxy.count(isCreate)).toBe(1);
    expect(
      client
        .getState()
        .messages.filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['/echo first']);
  });

  it('drops everything and bootstraps again when the signed-in user changes', async () => {
    const client = newClient();
    await client.send('/echo as user one');
    await waitFor(client, isSettled, 'the run to settle');
    server.signInAs('user-2');
    await expect(client.send('/echo as user two')).rejects.toMatchObject({ code: 'IDENTITY_CHANGED' });
    const state = await waitFor(client, (s) => s.bootstrap?.identity.identityId === 'idn_user-2', 'the new identity');
    expect(state).toMatchObject({
      sessionId: null,
      messages: [],
      run: null,
      pendingSend: null,
      error: { code: 'IDENTITY_CHANGED' },
    });
  });

  it('re-sends a create whose answer was lost byte-identical after a reload, and follows the one run', async () => {
    const storage = new Map<string, string>();
    const adapter = {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    };
    const first = newClient({ storage: adapter, createAttempts: 1 });
    await first.bootstrap();
    proxy.addFault({ match: isCreate, afterBytes: 0, kind: 'cut' });
    await expect(first.send('/echo after the reload')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(first.getState().pendingSend).toMatchObject({ text: '/echo after the reload', status: 'failed' });
    first.dispose();
    const second = newClient({ storage: adapter });
    await second.bootstrap();
    const state = await waitFor(second, isSettled, 'the resumed run to settle');
    const creates = recorder.requests.filter(isCreate);
    expect(creates.length).toBe(2);
    expect(new Set(creates.map((r) => `${r.idempotencyKey} ${r.body}`)).size).toBe(1);
    expect(await server.handler.store.listSessionRunIds(state.sessionId as string)).toEqual([state.run?.runId]);
    expect(state.messages).toEqual((await serverSnapshot(state.run?.runId as string)).messages);
    // Only the current conversation stays, for the next reload.
    expect([...storage.entries()]).toEqual([['agent-chat:session', JSON.stringify({ sessionId: state.sessionId })]]);
  });

  it('reconnects a reloaded tab to its active run without posting again', async () => {
    const storage = new Map<string, string>();
    const adapter = {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    };
    const first = newClient({ storage: adapter });
    const { runId } = await first.send('/slow');
    first.dispose();
    const second = newClient({ storage: adapter });
    await second.bootstrap();
    await waitFor(second, (s) => s.run?.runId === runId && s.connection === 'streaming', 'the same run streaming');
    await second.cancel();
    const state = await waitFor(second, isSettled, 'the cancelled run');
    expect(state.run?.status).toBe('cancelled');
    expect(proxy.count(isCreate)).toBe(1);
  });

  it('approves and denies through the client with the digest from state', async () => {
    for (const decision of ['allow', 'deny'] as const) {
      const client = newClient();
      await client.send('/approval');
      const waiting = await waitFor(client, (s) => s.interrupts.some((i) => i.state === 'open'), 'an open approval');
      const interrupt = waiting.interrupts[0];
      const requestsBefore = recorder.requests.length;
      await expect(client.approve('int_nope', decision)).rejects.toMatchObject({ code: 'INTERRUPT_UNKNOWN' });
      expect(recorder.requests.length).toBe(requestsBefore);
      const approval = client.approve(interrupt?.id as string, decision);
      expect(client.getState().submittingInterruptIds).toEqual([interrupt?.id]);
      await approval;
      const state = await waitFor(client, isSettled, 'the run after the decision');
      expect(JSON.parse(recorder.requests.at(requestsBefore)?.body as string)).toEqual({
        decision,
        argsDigest: interrupt?.argsDigest,
      });
      expect(state.interrupts[0]).toMatchObject({ state: 'resolved', decision });
      expect(state.toolCalls.find((c) => c.toolCallId === interrupt?.toolCallId)?.status).toBe(
        decision === 'allow' ? 'completed' : 'denied',
      );
      expect(state.submittingInterruptIds).toEqual([]);
    }
  });

  it('restores a finished session from its settled history', async () => {
    const writer = newClient();
    await writer.send('/echo one');
    await waitFor(writer, isSettled, 'the first run');
    await writer.send('/echo two');
    const written = await waitFor(writer, (s) => isSettled(s) && s.messages.length === 4, 'the second run');
    const reader = newClient();
    await reader.restore(written.sessionId as string);
    const state = reader.getState();
    expect(state.messages.map((m) => [m.messageId, m.role, m.content])).toEqual(
      written.messages.map((m) => [m.messageId, m.role, m.content]),
    );
    expect(state).toMatchObject({ sessionId: written.sessionId, connection: 'idle', run: null, error: null });
  });

  it('starts a new conversation with newSession(): the next send makes a new session, the old one stays restorable', async () => {
    const client = newClient();
    await client.send('/echo first');
    const first = await waitFor(client, isSettled, 'the first run');
    client.newSession();
    expect(client.getState()).toMatchObject({ sessionId: null, messages: [], run: null, runErrors: [], error: null });
    expect(client.getState().bootstrap).toEqual(first.bootstrap);
    await client.send('/echo second');
    const second = await waitFor(client, isSettled, 'the second run');
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', '/echo second'],
      ['assistant', 'second'],
    ]);
    await client.restore(first.sessionId as string);
    expect(client.getState().messages.map((m) => m.content)).toEqual(['/echo first', 'first']);
  });

  it('refuses newSession() while a send is unanswered', async () => {
    const client = newClient();
    await client.bootstrap();
    const sending = client.send('/echo hi');
    expect(() => client.newSession()).toThrow(expect.objectContaining({ code: 'SEND_IN_PROGRESS' }));
    await sending;
  });

  it('sends an instruction and the page focus with one message: the model gets both, the transcript keeps the focus size only', async () => {
    const client = newClient();
    await client.send('/context', {
      instruction: 'Answer briefly.',
      focus: { title: 'Order A-1', text: 'Status: shipped' },
    });
    const state = await waitFor(client, (s) => isSettled(s) && s.messages.length === 2, 'the /context run');
    const create = recorder.requests.find((r) => r.method === 'POST' && r.path.endsWith('/runs'));
    expect(JSON.parse(create?.body ?? '{}')).toMatchObject({
      input: { instruction: 'Answer briefly.', focus: { title: 'Order A-1', text: 'Status: shipped' } },
    });
    expect(state.messages[0]).toMatchObject({ role: 'user', focus: { title: 'Order A-1', chars: 15 } });
    const report = state.messages[1]?.content ?? '';
    // The focus layer: its preface (90 characters), "Title: Order A-1", a blank line and the text.
    expect(report).toContain('| focus | 123 | no |');
    expect(report).toContain('| instruction | 15 | no |');
    expect(JSON.stringify(state)).not.toContain('Answer briefly.');
  });

  it('closes the stream while hidden or offline and resumes from the cursor when back', async () => {
    const client = newClient();
    const { runId } = await client.send('/slow');
    await waitFor(client, (s) => (s.run?.lastSeq ?? 0) > 4, 'a few events');
    client.setVisibility(false);
    expect(client.getState().connection).toBe('idle');
    const hiddenAt = client.getState().run?.lastSeq as number;
    const streamsBefore = proxy.count(isEvents);
    client.setOnline(false);
    expect(client.getState().connection).toBe('offline');
    client.setVisibility(true);
    expect(client.getState().connection).toBe('offline');
    expect(proxy.count(isEvents)).toBe(streamsBefore);
    client.setOnline(true);
    await waitFor(client, (s) => s.connection === 'streaming' && (s.run?.lastSeq ?? 0) > hiddenAt, 'the stream back');
    const resumed = recorder.requests.filter((r) => r.path.endsWith('/events')).length;
    expect(resumed).toBe(streamsBefore + 1);
    await client.cancel();
    const state = await waitFor(client, isSettled, 'the cancelled run');
    expect(state.messages).toEqual((await serverSnapshot(runId)).messages);
  });

  it('attaches to the active run on RUN_ALREADY_ACTIVE and keeps the text that was not sent', async () => {
    const owner = newClient();
    const { runId } = await owner.send('/slow');
    const other = newClient();
    await other.restore(owner.getState().sessionId as string);
    await expect(other.send('/echo too early')).rejects.toMatchObject({ code: 'RUN_ALREADY_ACTIVE' });
    const state = await waitFor(other, (s) => s.connection === 'streaming', 'the attached stream');
    expect(state.run?.runId).toBe(runId);
    expect(state.pendingSend).toMatchObject({ text: '/echo too early', status: 'failed' });
    expect(state.error).toMatchObject({ code: 'RUN_ALREADY_ACTIVE', source: 'request', retryable: true });
    await owner.cancel();
    await waitFor(other, isSettled, 'the run to end for the second client');
  });

  it('shows a failed run with its correlation id, and retry() answers the same turn again', async () => {
    // With no retries left, /error's failed first attempt fails the run retryably: the user may send again.
    const strict = await startReferenceServer({ engineLimits: { maxRetries: 0 } });
    extraServers.push(strict);
    proxy.setUpstream(strict.port);
    const client = newClient();
    const { runId } = await client.send('/error');
    const failed = await waitFor(client, isSettled, 'the failed run');
    const snapshot = await serverSnapshot(runId, strict);
    expect(failed.error).toEqual({
      code: snapshot.error?.code,
      message: snapshot.error?.message,
      reference: snapshot.error?.correlationId,
      retryable: true,
      source: 'run',
      runId,
    });
    expect(failed.runErrors).toEqual([failed.error]);
    expect(failed.run?.status).toBe('failed');
    await client.retry();
    const again = await waitFor(client, (s) => isSettled(s) && s.run?.runId !== runId, 'the second run');
    const creates = recorder.requests.filter(isCreate);
    expect(creates.length).toBe(2);
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(2);
    expect(JSON.parse(creates[1]?.body ?? '{}')).toMatchObject({ sessionId: again.sessionId, retryOf: runId });
    const sessionId = again.sessionId as string;
    expect(await strict.handler.store.listSessionRunIds(sessionId)).toEqual([runId, again.run?.runId]);
    // One user message for the turn, here and after a reload; the failed run's error went with it.
    expect(again.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['/error']);
    expect(again.runErrors.map((error) => error.runId)).toEqual([again.run?.runId]);
    const reloaded = newClient();
    await reloaded.restore(sessionId);
    const restored = reloaded.getState().messages.filter((m) => m.role === 'user');
    expect(restored.map((m) => [m.runId, m.content])).toEqual([[again.run?.runId, '/error']]);
  });

  it('shows /fail as a failure the user cannot retry, kept with its run after a later send', async () => {
    const client = newClient();
    const { runId } = await client.send('/fail');
    const failed = await waitFor(client, isSettled, 'the failed run');
    expect(failed.error).toMatchObject({ code: 'MODEL_ERROR', retryable: false, source: 'run', runId });
    await expect(client.retry()).rejects.toMatchObject({ code: 'NOTHING_TO_RETRY' });
    await client.send('/echo later');
    const later = await waitFor(client, (s) => isSettled(s) && s.run?.runId !== runId, 'the later run');
    expect(later.error).toBeNull();
    expect(later.runErrors).toEqual([failed.error]);
  });

  it('retries a failed send with the same key and body when its failure was not definitive', async () => {
    const client = newClient({ createAttempts: 1 });
    await client.bootstrap();
    proxy.addFault({ match: isCreate, afterBytes: 0, kind: 'cut' });
    await expect(client.send('/echo retried by hand')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(client.getState().messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', '/echo retried by hand', 'error'],
    ]);
    await client.retry();
    const state = await waitFor(client, isSettled, 'the run');
    const creates = recorder.requests.filter(isCreate);
    expect(creates.length).toBe(2);
    expect(new Set(creates.map((r) => `${r.idempotencyKey} ${r.body}`)).size).toBe(1);
    expect(state.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['/echo retried by hand']);
    expect(state.pendingSend).toBe(null);
  });

  it('adds input to the active run with its own idempotency key', async () => {
    const client = newClient();
    const { runId } = await client.send('/slow');
    await waitFor(client, (s) => s.run?.status === 'running', 'the run running');
    await client.addInput('and one more thing');
    const withInput = await waitFor(
      client,
      (s) => s.messages.some((m) => m.role === 'user' && m.inputId !== undefined && m.status === 'complete'),
      'the echoed input',
    );
    expect(withInput.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      '/slow',
      'and one more thing',
    ]);
    const inputRequest = recorder.requests.find((r) => r.path.endsWith('/inputs'));
    expect(inputRequest?.idempotencyKey).toMatch(/^"[A-Za-z0-9_.:-]{16,255}"$/);
    await client.cancel();
    const state = await waitFor(client, isSettled, 'the cancelled run');
    expect(state.messages).toEqual((await serverSnapshot(runId)).messages);
    await expect(client.addInput('too late')).rejects.toMatchObject({ code: 'RUN_NOT_ACTIVE' });
  });

  it('drops a pending create older than the key TTL after a reload instead of re-sending it', async () => {
    const storage = new Map<string, string>();
    const adapter = {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
      removeItem: (k: string) => void storage.delete(k),
    };
    const first = newClient({ storage: adapter, createAttempts: 1 });
    await first.bootstrap();
    proxy.addFault({ match: isCreate, afterBytes: 0, kind: 'cut' });
    await expect(first.send('/echo from yesterday')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    first.dispose();
    const dayLater = {
      now: () => Date.now() + 86_400_000,
      setTimeout: globalThis.setTimeout,
      clearTimeout: (h: unknown) => globalThis.clearTimeout(h as number),
    };
    const second = newClient({ storage: adapter, clock: dayLater });
    await second.bootstrap();
    const state = await waitFor(second, (s) => s.error !== null, 'the expired send');
    expect(state.pendingSend).toMatchObject({ text: '/echo from yesterday', status: 'failed' });
    expect(state.error).toMatchObject({ code: 'PENDING_SEND_EXPIRED', retryable: true });
    expect(proxy.count(isCreate)).toBe(1);
    expect([...storage.keys()]).toEqual([]);
  });

  it('refuses calls after dispose and bootstrap against a server that is not protocol v1', async () => {
    const client = newClient();
    client.dispose();
    await expect(client.send('/echo late')).rejects.toMatchObject({ code: 'CLIENT_DISPOSED' });
    const stranger = newClient({ endpoint: `http://127.0.0.1:${proxy.port}/not-agent` });
    await expect(stranger.bootstrap()).rejects.toMatchObject({ code: 'PROTOCOL_MISMATCH' });
    expect(stranger.getState()).toMatchObject({
      connection: 'error',
      error: { code: 'PROTOCOL_MISMATCH', source: 'request' },
    });
  });
});
