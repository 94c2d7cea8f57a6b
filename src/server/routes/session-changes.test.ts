import { afterEach, describe, expect, it } from 'vitest';
import type { Limits, SessionListResponse, SessionMessagesResponse, SessionResource } from '../../core/protocol.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import { seedSession } from '../storage/test-support/seed-session.ts';
import type { AgentHandlerOptions } from '../create-agent-handler.ts';
import type { ManualEngine } from '../test-support/manual-engine.ts';
import { createManualEngine } from '../test-support/manual-engine.ts';
import { everyStorage } from '../test-support/every-storage.ts';
import type { TestServer } from '../test-support/start-test-server.ts';
import { startTestServer } from '../test-support/start-test-server.ts';

let server: TestServer | undefined;
let storage: AgentStorage | undefined;

afterEach(async () => {
  await server?.close();
  await storage?.close();
  server = undefined;
  storage = undefined;
});

const STORAGES = everyStorage('session-changes');

async function start(
  openStorage: () => Promise<AgentStorage>,
  options: { limits?: Partial<Limits> } & Pick<AgentHandlerOptions, 'suggestTitle' | 'onError'> = {},
): Promise<{ server: TestServer; engine: ManualEngine }> {
  const engine = createManualEngine();
  storage = await openStorage();
  server = await startTestServer({ engine, storage, identityFor: (subject) => `idn_${subject.id}`, ...options });
  return { server, engine };
}

async function finish(engine: ManualEngine, runId: string, answer = 'Answer'): Promise<void> {
  const handle = await engine.handleOf(runId);
  const messageId = `msg_answer_${runId}`;
  await handle.append('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
  await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: answer });
  await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
  await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
}

function rename(user: string, sessionId: string, body: unknown): Promise<Response> {
  return (server as TestServer).request(`/sessions/${sessionId}`, { user, method: 'PATCH', body });
}

function remove(user: string, sessionId: string): Promise<Response> {
  return (server as TestServer).request(`/sessions/${sessionId}`, { user, method: 'DELETE' });
}

async function listIds(user: string, query = ''): Promise<[string[], string | null]> {
  const page = (await (
    await (server as TestServer).request(`/sessions${query}`, { user })
  ).json()) as SessionListResponse;
  return [page.items.map((s) => s.sessionId), page.nextAfter];
}

/** A problem body without the fields that differ per request. */
async function problemOf(response: Response): Promise<[number, Record<string, unknown>]> {
  const { requestId: _requestId, ...body } = (await response.json()) as Record<string, unknown>;
  return [response.status, body];
}

describe.each(STORAGES)('conversations over HTTP on %s storage (docs/protocol.md §5.7)', (_name, openStorage) => {
  it('lists by latest activity with title, message count, active run and a cursor that pages', async () => {
    const { server, engine } = await start(openStorage);
    const first = await server.createRun('carol', 'First   question\nabout things');
    await finish(engine, first.runId);
    const second = await server.createRun('carol', 'Second');
    await finish(engine, second.runId);
    const third = await server.createRun('carol', 'Third, still running');
    await server.createRun('dave', 'Not carol’s');
    expect(await listIds('carol', '?limit=2')).toEqual([[third.sessionId, second.sessionId], expect.any(String)]);
    const [, after] = await listIds('carol', '?limit=2');
    expect(await listIds('carol', `?limit=2&after=${after as string}`)).toEqual([[first.sessionId], null]);
    // A new turn in the oldest conversation brings it to the top.
    const again = await server.createRun('carol', 'Back to the first', { sessionId: first.sessionId });
    const page = (await (await server.request('/sessions', { user: 'carol' })).json()) as SessionListResponse;
    expect(page.items.map((s) => s.sessionId)).toEqual([first.sessionId, third.sessionId, second.sessionId]);
    const [top, running, ended] = page.items as [SessionResource, SessionResource, SessionResource];
    // The count includes the message being answered: a first run lists as 1, not "0 · Answering…".
    expect(top).toMatchObject({
      title: 'First question about things',
      messageCount: 3,
      activeRun: { runId: again.runId, status: 'queued', lastSeq: 1 },
      lastRunId: again.runId,
    });
    expect([running.title, running.messageCount, running.activeRun?.runId]).toEqual([
      'Third, still running',
      1,
      third.runId,
    ]);
    expect([ended.title, ended.messageCount, ended.activeRun]).toEqual(['Second', 2, null]);
    expect(Date.parse(top.updatedAt)).toBeGreaterThanOrEqual(Date.parse(running.updatedAt));
    const [status, body] = await problemOf(await server.request('/sessions?after=ses_x', { user: 'carol' }));
    expect([status, body.code, body.details]).toEqual([422, 'VALIDATION_FAILED', { field: 'after' }]);
    const [limitStatus, limitBody] = await problemOf(await server.request('/sessions?limit=101', { user: 'carol' }));
    expect([limitStatus, limitBody.details]).toEqual([422, { field: 'limit', max: 100 }]);
  });

  it('counts the message being answered, and the answer once it settles', async () => {
    const { server, engine } = await start(openStorage);
    const run = await server.createRun('carol', 'Hello');
    const countOf = async (): Promise<[number, number | undefined]> => {
      const one = (await (
        await server.request(`/sessions/${run.sessionId}`, { user: 'carol' })
      ).json()) as SessionResource;
      const list = (await (await server.request('/sessions', { user: 'carol' })).json()) as SessionListResponse;
      return [one.messageCount, list.items[0]?.messageCount];
    };
    expect(await countOf()).toEqual([1, 1]);
    const handle = await engine.handleOf(run.runId);
    await handle.append('TEXT_MESSAGE_START', { messageId: 'msg_partial', role: 'assistant' });
    await handle.append('TEXT_MESSAGE_CONTENT', { messageId: 'msg_partial', delta: 'Half an ans' });
    expect(await countOf()).toEqual([1, 1]);
    await handle.append('TEXT_MESSAGE_END', { messageId: 'msg_partial', finishReason: 'stop' });
    await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
    expect(await countOf()).toEqual([2, 2]);
  });

  it('pages a long history newest first to its start, with the limit and the cursor checked at the edge', async () => {
    const { server } = await start(openStorage);
    const ids = await seedSession(storage as AgentStorage, {
      sessionId: 'ses_long',
      subjectId: 'carol',
      agentVersionId: 'agv_demo_1',
      runs: 60,
      userTextOf: (index) => `Question ${index + 1}`,
    });
    const messagesOf = async (query: string, user = 'carol'): Promise<SessionMessagesResponse> =>
      (await (await server.request(`/sessions/ses_long/messages${query}`, { user })).json()) as SessionMessagesResponse;
    const pages: SessionMessagesResponse[] = [await messagesOf('')];
    for (let next = pages[0]?.nextBefore; next; next = pages.at(-1)?.nextBefore) {
      pages.push(await messagesOf(`?before=${next}`));
    }
    expect(pages.map((page) => [page.items.length, page.nextBefore, page.activeRun])).toEqual([
      [50, ids[70], null],
      [50, ids[20], null],
      [20, null, null],
    ]);
    expect(pages.flatMap((page) => page.items.map((message) => message.messageId))).toEqual(ids.slice().reverse());
    expect((await messagesOf('?limit=200')).items).toHaveLength(120);
    for (const [query, details] of [
      ['?limit=201', { field: 'limit', max: 200 }],
      ['?limit=0', { field: 'limit', max: 200 }],
      ['?before=msg_unknown', { field: 'before' }],
    ] as const) {
      const [status, body] = await problemOf(
        await server.request(`/sessions/ses_long/messages${query}`, { user: 'carol' }),
      );
      expect([status, body.code, body.details]).toEqual([422, 'VALIDATION_FAILED', details]);
    }
    const [theirStatus, theirBody] = await problemOf(
      await server.request(`/sessions/ses_long/messages?before=${ids[70] as string}`, { user: 'dave' }),
    );
    const [, missingBody] = await problemOf(await server.request('/sessions/ses_missing/messages', { user: 'dave' }));
    expect([theirStatus, theirBody]).toEqual([404, missingBody]);
  });

  it('renames within the title limits, one line, and keeps the activity time', async () => {
    const { server } = await start(openStorage, { limits: { maxTitleChars: 20 } });
    const { sessionId } = await server.createRun('carol', 'Hello');
    const before = (await (
      await server.request(`/sessions/${sessionId}`, { user: 'carol' })
    ).json()) as SessionResource;
    const renamed = await rename('carol', sessionId, { title: '  Trip\n\tplans  ' });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ ...before, title: 'Trip plans' });
    expect(
      ((await (await server.request(`/sessions/${sessionId}`, { user: 'carol' })).json()) as SessionResource).title,
    ).toBe('Trip plans');
    expect((await rename('carol', sessionId, { title: 'x'.repeat(20) })).status).toBe(200);
    const refusals: [unknown, Record<string, unknown>][] = [
      [{ title: 'x'.repeat(21) }, { field: 'title', limit: 'maxTitleChars', maxTitleChars: 20, actual: 21 }],
      [{ title: ' \n ' }, { field: 'title', reason: 'empty' }],
      [{ title: 'bell\u0007' }, { field: 'title', reason: 'control_characters' }],
      [{ title: 42 }, { field: 'title' }],
      [{}, { field: 'title' }],
    ];
    for (const [body, details] of refusals) {
      const [status, problem] = await problemOf(await rename('carol', sessionId, body));
      expect([status, problem.code, problem.details]).toEqual([422, 'VALIDATION_FAILED', details]);
    }
    expect(
      ((await (await server.request(`/sessions/${sessionId}`, { user: 'carol' })).json()) as SessionResource).title,
    ).toBe('x'.repeat(20));
  });

  it('refuses to delete a session while its run is active (409 with the run), then deletes it for good', async () => {
    const { server, engine } = await start(openStorage);
    const { runId, sessionId } = await server.createRun('carol', 'Hello');
    const [status, body] = await problemOf(await remove('carol', sessionId));
    expect([status, body.code, body.activeRunId, body.details]).toEqual([
      409,
      'RUN_ALREADY_ACTIVE',
      runId,
      { activeRunId: runId },
    ]);
    expect((await server.request(`/sessions/${sessionId}`, { user: 'carol' })).status).toBe(200);
    await finish(engine, runId);
    const deleted = await remove('carol', sessionId);
    expect([deleted.status, await deleted.text(), deleted.headers.get('cache-control')]).toEqual([204, '', 'no-store']);
    expect((await server.request(`/sessions/${sessionId}`, { user: 'carol' })).status).toBe(404);
    expect((await server.request(`/sessions/${sessionId}/messages`, { user: 'carol' })).status).toBe(404);
    expect((await server.request(`/runs/${runId}`, { user: 'carol' })).status).toBe(404);
    expect((await remove('carol', sessionId)).status).toBe(404);
    expect(await listIds('carol')).toEqual([[], null]);
  });

  it('answers another subject’s session exactly like a missing one, and changes nothing', async () => {
    const { server, engine } = await start(openStorage);
    const { runId, sessionId } = await server.createRun('carol', 'Private');
    await finish(engine, runId);
    const pairs: [Response, Response][] = [
      [await rename('dave', sessionId, { title: 'Mine now' }), await rename('dave', 'ses_missing', { title: 'x' })],
      [await remove('dave', sessionId), await remove('dave', 'ses_missing')],
      [
        await server.request(`/sessions/${sessionId}`, { user: 'dave' }),
        await server.request('/sessions/ses_missing', { user: 'dave' }),
      ],
    ];
    for (const [theirs, missing] of pairs) {
      const [theirStatus, theirBody] = await problemOf(theirs);
      expect(theirStatus).toBe(404);
      expect(theirBody).toEqual((await problemOf(missing))[1]);
    }
    expect(await listIds('dave')).toEqual([[], null]);
    const kept = (await (await server.request(`/sessions/${sessionId}`, { user: 'carol' })).json()) as SessionResource;
    expect([kept.title, kept.messageCount]).toEqual(['Private', 2]);
  });

  it('guards renames and deletes like every write: identity header, rate limit, methods', async () => {
    const { server } = await start(openStorage, { limits: { sessionChangesPerMinute: 2 } });
    const { sessionId } = await server.createRun('carol', 'Hello');
    const withoutIdentity = await fetch(`${server.baseUrl}/api/agent/v1/sessions/${sessionId}`, {
      method: 'DELETE',
      headers: { 'agent-protocol': '1', 'x-test-user': 'carol' },
    });
    const [headerStatus, headerBody] = await problemOf(withoutIdentity);
    expect([headerStatus, headerBody.details]).toEqual([400, { header: 'X-Agent-Identity' }]);
    expect((await rename('carol', sessionId, { title: 'One' })).status).toBe(200);
    expect((await rename('carol', sessionId, { title: 'Two' })).status).toBe(200);
    const limited = await rename('carol', sessionId, { title: 'Three' });
    const [limitedStatus, limitedBody] = await problemOf(limited);
    expect([limitedStatus, limited.headers.get('retry-after'), limitedBody.details]).toEqual([
      429,
      '30',
      { limit: 'sessionChangesPerMinute', sessionChangesPerMinute: 2 },
    ]);
    expect((await remove('carol', sessionId)).status).toBe(429);
    const put = await server.request(`/sessions/${sessionId}`, { user: 'carol', method: 'PUT', body: {} });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, PATCH, DELETE']);
  });

  it('takes the product’s suggested title unless the user renamed first; a failing hook keeps the default', async () => {
    const suggestions: { text: string; resolve: (title: string | null) => void; reject: (error: Error) => void }[] = [];
    const errors: unknown[] = [];
    const { server, engine } = await start(openStorage, {
      suggestTitle: ({ text }) => new Promise((resolve, reject) => suggestions.push({ text, resolve, reject })),
      onError: (error) => errors.push(error),
    });
    const titleOf = async (sessionId: string): Promise<string | null> =>
      ((await (await server.request(`/sessions/${sessionId}`, { user: 'carol' })).json()) as SessionResource).title;
    const settle = async (): Promise<void> => {
      await server.request('/sessions', { user: 'carol' });
    };
    const first = await server.createRun('carol', 'can you help me plan a trip to Lisbon in May?');
    expect(suggestions.map((s) => s.text)).toEqual(['can you help me plan a trip to Lisbon in May?']);
    expect(await titleOf(first.sessionId)).toBe('can you help me plan a trip to Lisbon in May?');
    suggestions[0]?.resolve('  Lisbon\ntrip in May ');
    await settle();
    expect(await titleOf(first.sessionId)).toBe('Lisbon trip in May');
    await finish(engine, first.runId);
    // Later turns ask nothing.
    await server.createRun('carol', 'And in June?', { sessionId: first.sessionId });
    expect(suggestions).toHaveLength(1);

    const second = await server.createRun('carol', 'Another question');
    await rename('carol', second.sessionId, { title: 'Mine' });
    suggestions[1]?.resolve('Too late');
    await settle();
    expect(await titleOf(second.sessionId)).toBe('Mine');
    expect(errors).toEqual([]);

    const third = await server.createRun('carol', 'A third one');
    const failure = new Error('model down');
    suggestions[2]?.reject(failure);
    await settle();
    expect(await titleOf(third.sessionId)).toBe('A third one');
    expect(errors).toEqual([failure]);
  });
});
