import { afterEach, describe, expect, it } from 'vitest';
import type { FeedbackResponse, Limits, RunResource, SessionMessagesResponse } from '../../core/protocol.ts';
import type { AgentHandlerOptions } from '../create-agent-handler.ts';
import { createMemoryStorage } from '../storage/memory-storage.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
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

const STORAGES = everyStorage('feedback');

async function start(
  openStorage: () => Promise<AgentStorage>,
  options: { limits?: Partial<Limits> } & Pick<AgentHandlerOptions, 'onFeedback' | 'onError'> = {},
): Promise<{ server: TestServer; engine: ManualEngine }> {
  const engine = createManualEngine();
  storage = await openStorage();
  server = await startTestServer({ engine, storage, identityFor: (subject) => `idn_${subject.id}`, ...options });
  return { server, engine };
}

/** Finishes the run with one answer and returns its message id. */
async function finish(engine: ManualEngine, runId: string): Promise<string> {
  const handle = await engine.handleOf(runId);
  const messageId = `msg_answer_${runId}`;
  await handle.append('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
  await handle.append('TEXT_MESSAGE_CONTENT', { messageId, delta: 'Answer' });
  await handle.append('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' });
  await handle.append('RUN_FINISHED', { outcome: { type: 'success' } });
  return messageId;
}

function vote(user: string, runId: string, body: unknown): Promise<Response> {
  return (server as TestServer).request(`/runs/${runId}/feedback`, { user, method: 'POST', body });
}

async function answerOf(user: string, runId: string): Promise<RunResource['messages'][number] | undefined> {
  const run = (await (await (server as TestServer).request(`/runs/${runId}`, { user })).json()) as RunResource;
  return run.messages.find((message) => message.role === 'assistant');
}

describe.each(STORAGES)('feedback on answers on %s storage (docs/protocol.md §5.9)', (_name, openStorage) => {
  it('keeps one vote per person and answer: a second replaces the first, visible in the run and the history', async () => {
    const told: unknown[] = [];
    const { server, engine } = await start(openStorage, {
      onFeedback: (subject, feedback) => void told.push([subject.id, feedback]),
    });
    const { runId, sessionId } = await server.createRun('carol', 'Question');
    const messageId = await finish(engine, runId);

    const first = await vote('carol', runId, { messageId, rating: 'up' });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ runId, messageId, rating: 'up' } satisfies Partial<FeedbackResponse>);
    expect((await answerOf('carol', runId))?.feedback).toEqual({ rating: 'up' });

    expect((await vote('carol', runId, { messageId, rating: 'down', comment: '  Too long  ' })).status).toBe(200);
    expect((await answerOf('carol', runId))?.feedback).toEqual({ rating: 'down', comment: 'Too long' });
    const history = (await (
      await server.request(`/sessions/${sessionId}/messages`, { user: 'carol' })
    ).json()) as SessionMessagesResponse;
    expect(history.items.find((message) => message.messageId === messageId)?.feedback).toEqual({
      rating: 'down',
      comment: 'Too long',
    });
    expect(told).toEqual([
      ['carol', { sessionId, runId, messageId, rating: 'up', comment: null }],
      ['carol', { sessionId, runId, messageId, rating: 'down', comment: 'Too long' }],
    ]);
  });

  it('answers 404 for another person’s run and keeps nothing', async () => {
    const { server, engine } = await start(openStorage);
    const { runId } = await server.createRun('carol', 'Question');
    const messageId = await finish(engine, runId);
    const response = await vote('mallory', runId, { messageId, rating: 'down' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await answerOf('carol', runId))?.feedback).toBeUndefined();
  });
});

describe('feedback validation', () => {
  it('refuses a bad rating, a message that is not an answer of the run and a comment over the cap', async () => {
    const { server, engine } = await start(async () => createMemoryStorage(), { limits: { maxCommentChars: 10 } });
    const { runId, userMessageId } = (await server.createRun('carol', 'Question')) as unknown as {
      runId: string;
      userMessageId: string;
    };
    const messageId = await finish(engine, runId);
    const cases: [unknown, Record<string, unknown>][] = [
      [
        { messageId, rating: 'meh' },
        { code: 'VALIDATION_FAILED', details: { field: 'rating' } },
      ],
      [
        { messageId: userMessageId, rating: 'up' },
        { code: 'VALIDATION_FAILED', details: { field: 'messageId' } },
      ],
      [{ rating: 'up' }, { code: 'VALIDATION_FAILED', details: { field: 'messageId' } }],
      [
        { messageId, rating: 'up', comment: 'x'.repeat(11) },
        { code: 'VALIDATION_FAILED', details: { field: 'comment', limit: 'maxCommentChars', maxCommentChars: 10 } },
      ],
      [
        { messageId, rating: 'up', comment: 5 },
        { code: 'VALIDATION_FAILED', details: { field: 'comment' } },
      ],
    ];
    for (const [body, problem] of cases) {
      const response = await vote('carol', runId, body);
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject(problem);
    }
    expect((await answerOf('carol', runId))?.feedback).toBeUndefined();
  });

  it('refuses a comment with control characters but keeps tabs and line breaks', async () => {
    const { server, engine } = await start(async () => createMemoryStorage());
    const { runId } = await server.createRun('carol', 'Question');
    const messageId = await finish(engine, runId);
    for (const comment of ['nul\u0000', 'esc\u001b[31m', 'del\u007f', 'c1\u009b']) {
      const response = await vote('carol', runId, { messageId, rating: 'down', comment });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'comment', reason: 'control_characters' },
      });
    }
    expect((await answerOf('carol', runId))?.feedback).toBeUndefined();

    const multiline = 'First line\r\n\tsecond line';
    expect((await vote('carol', runId, { messageId, rating: 'down', comment: multiline })).status).toBe(200);
    expect((await answerOf('carol', runId))?.feedback).toEqual({ rating: 'down', comment: multiline });
  });

  it('counts votes against feedbackPerMinute (429 RATE_LIMITED past it)', async () => {
    const { server, engine } = await start(async () => createMemoryStorage(), { limits: { feedbackPerMinute: 2 } });
    const { runId } = await server.createRun('carol', 'Question');
    const messageId = await finish(engine, runId);
    expect((await vote('carol', runId, { messageId, rating: 'up' })).status).toBe(200);
    expect((await vote('carol', runId, { messageId, rating: 'down' })).status).toBe(200);
    const refused = await vote('carol', runId, { messageId, rating: 'up' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 'feedbackPerMinute' } });
    expect((await answerOf('carol', runId))?.feedback).toEqual({ rating: 'down' });
  });

  it('keeps the vote when the product hook throws, telling onError', async () => {
    const errors: unknown[] = [];
    const { server, engine } = await start(async () => createMemoryStorage(), {
      onFeedback: () => {
        throw new Error('analytics down');
      },
      onError: (error) => void errors.push(error),
    });
    const { runId } = await server.createRun('carol', 'Question');
    const messageId = await finish(engine, runId);
    expect((await vote('carol', runId, { messageId, rating: 'up' })).status).toBe(200);
    expect((await answerOf('carol', runId))?.feedback).toEqual({ rating: 'up' });
    expect(errors).toHaveLength(1);
  });
});
