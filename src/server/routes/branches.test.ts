import { describe, expect, it } from 'vitest';
import type { RunResource, SessionMessagesResponse, SessionResource } from '../../core/protocol.ts';
import type { ManualEngine } from '../test-support/manual-engine.ts';
import { everyStorage } from '../test-support/every-storage.ts';
import { useManualServers } from '../test-support/start-manual-server.ts';
import type { TestServer } from '../test-support/start-test-server.ts';

const startServer = useManualServers();

const STORAGES = everyStorage('branches');

/** One turn over HTTP: creates the run (with `extra` in the body), answers it, and returns its ids and what the model was given. */
async function turn(
  test: { server: TestServer; engine: ManualEngine },
  text: string,
  extra: Record<string, unknown> = {},
): Promise<{ runId: string; userMessageId: string; answerId: string; modelSaw: string[] }> {
  const { runId, userMessageId } = (await test.server.createRun('dana', text, extra)) as unknown as {
    runId: string;
    userMessageId: string;
  };
  const handle = await test.engine.handleOf(runId);
  const modelSaw = handle.history.map((message) => message.content);
  const answerId = `msg_answer_${runId}`;
  await handle.append('TEXT_MESSAGE_START', { messageId: answerId, role: 'assistant' });
  await handle.append('TEXT_MESSAGE_CONTENT', { messageId: answerId, delta: `Answer to ${text}` });
  await handle.append('TEXT_MESSAGE_END', { messageId: answerId, finishReason: 'stop' });
  await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
  return { runId, userMessageId, answerId, modelSaw };
}

async function page(test: { server: TestServer }, sessionId: string, query = ''): Promise<SessionMessagesResponse> {
  return (await (
    await test.server.request(`/sessions/${sessionId}/messages${query}`, { user: 'dana' })
  ).json()) as SessionMessagesResponse;
}

const contents = (response: SessionMessagesResponse) => response.items.map((message) => message.content).reverse();

describe.each(STORAGES)('branches on %s storage (docs/protocol.md §5.2, §5.7)', (_name, openStorage) => {
  const start = () => startServer(openStorage);

  it('regenerates and edits as new branches, moves between them, and continues the branch shown', async () => {
    const test = await start();
    const first = await turn(test, 'One');
    const sessionId = (
      (await test.server.request(`/runs/${first.runId}`, { user: 'dana' }).then((r) => r.json())) as RunResource
    ).sessionId;
    const inSession = { sessionId };
    const second = await turn(test, 'Two', inSession);
    const third = await turn(test, 'Three', inSession);
    expect(third.modelSaw).toEqual(['One', 'Answer to One', 'Two', 'Answer to Two']);

    // Regenerate the second turn twice: each follows the first answer, and the model never sees the other versions.
    const again = await turn(test, 'Two', { ...inSession, parentMessageId: first.answerId });
    expect(again.modelSaw).toEqual(['One', 'Answer to One']);
    const twice = await turn(test, 'Two', { ...inSession, parentMessageId: first.answerId });
    expect(twice.modelSaw).toEqual(['One', 'Answer to One']);
    const shown = await page(test, sessionId);
    expect(contents(shown)).toEqual(['One', 'Answer to One', 'Two', 'Answer to Two']);
    const userOf = (response: SessionMessagesResponse, text: string) =>
      response.items.find((message) => message.role === 'user' && message.content === text);
    expect(userOf(shown, 'Two')).toMatchObject({
      messageId: twice.userMessageId,
      parentMessageId: first.answerId,
      branchMessageIds: [second.userMessageId, again.userMessageId, twice.userMessageId],
    });
    expect(userOf(shown, 'One')?.branchMessageIds).toBeUndefined();

    // Move to version 1 of the turn: its branch comes back down to the turn made last below it (Three).
    const moved = await test.server.request(`/sessions/${sessionId}/branch`, {
      user: 'dana',
      method: 'POST',
      body: { messageId: second.userMessageId },
    });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as SessionResource).messageCount).toBe(6);
    expect(contents(await page(test, sessionId))).toEqual([
      'One',
      'Answer to One',
      'Two',
      'Answer to Two',
      'Three',
      'Answer to Three',
    ]);
    // Pages follow the branch too.
    const newest = await page(test, sessionId, '?limit=2');
    expect(contents(newest)).toEqual(['Three', 'Answer to Three']);
    expect(contents(await page(test, sessionId, `?limit=2&before=${newest.nextBefore}`))).toEqual([
      'Two',
      'Answer to Two',
    ]);

    // Version 2, then a send continues it, and the model sees exactly that branch.
    await test.server.request(`/sessions/${sessionId}/branch`, {
      user: 'dana',
      method: 'POST',
      body: { messageId: again.userMessageId },
    });
    const onTwo = await turn(test, 'Four', inSession);
    expect(onTwo.modelSaw).toEqual(['One', 'Answer to One', 'Two', 'Answer to Two']);
    const afterSend = await page(test, sessionId);
    expect(contents(afterSend)).toEqual(['One', 'Answer to One', 'Two', 'Answer to Two', 'Four', 'Answer to Four']);
    expect(userOf(afterSend, 'Two')?.messageId).toBe(again.userMessageId);

    // Edit the first message: a new first turn; the whole old branch leaves the one shown.
    const edited = await turn(test, 'Uno', { ...inSession, parentMessageId: null });
    expect(edited.modelSaw).toEqual([]);
    const afterEdit = await page(test, sessionId);
    expect(contents(afterEdit)).toEqual(['Uno', 'Answer to Uno']);
    expect(userOf(afterEdit, 'Uno')?.branchMessageIds).toEqual([first.userMessageId, edited.userMessageId]);
    expect(userOf(afterEdit, 'Uno')?.parentMessageId).toBeUndefined();
    // And back: the first version shows its branch last used (the one with Four).
    await test.server.request(`/sessions/${sessionId}/branch`, {
      user: 'dana',
      method: 'POST',
      body: { messageId: first.userMessageId },
    });
    expect(contents(await page(test, sessionId)).at(-2)).toBe('Four');
  });

  it('refuses a parent that ends no turn of the branch shown, a branch of no turn, and a move during a run', async () => {
    const test = await start();
    const first = await turn(test, 'One');
    const { sessionId } = (await test.server
      .request(`/runs/${first.runId}`, { user: 'dana' })
      .then((r) => r.json())) as RunResource;
    const refused = await test.server.request('/runs', {
      user: 'dana',
      body: {
        agentVersionId: 'agv_demo_1',
        sessionId,
        parentMessageId: first.userMessageId,
        input: { content: [{ type: 'text', text: 'x' }] },
      },
      headers: { 'idempotency-key': 'key-branch-refused-1' },
    });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'parentMessageId', reason: 'not_a_turn_end' },
    });
    const branch = (messageId: string, user = 'dana') =>
      test.server.request(`/sessions/${sessionId}/branch`, { user, method: 'POST', body: { messageId } });
    expect(await (await branch(first.answerId)).json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'messageId', reason: 'not_a_turn' },
    });
    expect((await branch(first.userMessageId, 'eve')).status).toBe(404);
    const { runId } = await test.server.createRun('dana', 'Two', { sessionId, parentMessageId: null });
    const during = await branch(first.userMessageId);
    expect(during.status).toBe(409);
    expect(await during.json()).toMatchObject({ code: 'RUN_ALREADY_ACTIVE', activeRunId: runId });
  });

  it('makes one run of a retried regenerate (the same key and body)', async () => {
    const test = await start();
    const first = await turn(test, 'One');
    const { sessionId } = (await test.server
      .request(`/runs/${first.runId}`, { user: 'dana' })
      .then((r) => r.json())) as RunResource;
    await turn(test, 'Two', { sessionId });
    const regenerate = () =>
      test.server.request('/runs', {
        user: 'dana',
        body: {
          agentVersionId: 'agv_demo_1',
          sessionId,
          parentMessageId: first.answerId,
          input: { content: [{ type: 'text', text: 'Two' }] },
        },
        headers: { 'idempotency-key': 'key-regenerate-once-1' },
      });
    const [a, b] = [await regenerate(), await regenerate()];
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(((await b.json()) as { runId: string }).runId).toBe(((await a.json()) as { runId: string }).runId);
    expect(await test.server.request(`/sessions/${sessionId}`, { user: 'dana' }).then((r) => r.json())).toMatchObject({
      messageCount: 3,
    });
  });
});
