import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../core/protocol.ts';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../core/protocol.ts';
import { sha256Digest } from '../json/canonical-json.ts';
import { assertEventInvariants } from './test-support/assert-event-invariants.ts';
import { dataOf } from './test-support/run-engine-harness.ts';
import type { EngineServer, FollowedRun } from './test-support/start-engine-server.ts';
import { resourceFromEvents, startEngineServer } from './test-support/start-engine-server.ts';

const open: EngineServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const NEW_PROFILE = { displayName: 'Ada Lovelace', bio: 'Tea drinker.\nWrites about agents.' };
const WRITTEN = JSON.stringify({ updated: true, profile: NEW_PROFILE });

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** Starts `/propose` as alice on a fresh server and follows it until the proposal is offered. */
async function startProposal(): Promise<{
  server: EngineServer;
  runId: string;
  run: FollowedRun;
  path: string;
  argsDigest: string;
}> {
  const server = await startEngineServer({ engine: {} });
  open.push(server);
  const { runId } = await server.createRun('alice', '/propose');
  const run = await server.follow(runId, 'alice');
  const events = await run.until((seen) => seen.some((e) => e.type === 'INTERRUPT_REQUESTED'));
  const [requested] = dataOf(events, 'INTERRUPT_REQUESTED');
  expect(requested?.interrupt).toMatchObject({ reason: 'proposal', argsDigest: sha256Digest(NEW_PROFILE) });
  const argsDigest = requested?.interrupt.argsDigest ?? '';
  return { server, runId, run, path: `/runs/${runId}/interrupts/${requested?.interrupt.id ?? ''}`, argsDigest };
}

/** Waits for the end of the stream, checks docs/protocol.md §7 and that `GET /runs/{id}` is the reducer over it. */
async function finished(server: EngineServer, runId: string, run: FollowedRun): Promise<EventEnvelope[]> {
  const events = await run.done;
  assertEventInvariants(events);
  expect(await server.resource(runId)).toEqual(resourceFromEvents(events));
  return events;
}

const answerOf = (events: readonly EventEnvelope[]): string | undefined =>
  resourceFromEvents(events)
    .messages.filter((m) => m.role === 'assistant')
    .at(-1)?.content;

describe('proposals over HTTP with the real engine', () => {
  it('Apply is refused for a stranger (404) and a digest not shown (412), then applies exactly once however often it is sent', async () => {
    const { server, runId, run, path, argsDigest } = await startProposal();
    const stranger = await server.request(path, { user: 'bob', body: { decision: 'allow', argsDigest } });
    expect([stranger.status, (await json(stranger)).code]).toEqual([404, 'INTERRUPT_NOT_FOUND']);
    const wrong = await server.request(path, { body: { decision: 'allow', argsDigest: 'sha256:not-what-was-shown' } });
    expect([wrong.status, (await json(wrong)).code]).toEqual([412, 'ARGS_DIGEST_MISMATCH']);
    // A proposal is decided on what was shown: a {response} (no decision, no digest) is refused.
    const answered = await server.request(path, { body: { response: { displayName: 'Mallory' } } });
    expect([answered.status, await json(answered)]).toEqual([
      422,
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'decision' } }),
    ]);
    expect((await server.resource(runId)).interrupts.map((i) => i.state)).toEqual(['open']);

    const applied = await server.request(path, { body: { decision: 'allow', argsDigest } });
    expect(applied.status).toBe(200);
    const again = await server.request(path, { body: { decision: 'allow', argsDigest } });
    expect([again.status, again.headers.get(IDEMPOTENT_REPLAYED_HEADER)]).toEqual([200, 'true']);
    const dismissed = await server.request(path, { body: { decision: 'deny', argsDigest } });
    expect([dismissed.status, (await json(dismissed)).code]).toEqual([409, 'INTERRUPT_ALREADY_RESOLVED']);

    const events = await finished(server, runId, run);
    expect(dataOf(events, 'TOOL_CALL_START').map((d) => d.toolCallName)).toEqual(['profile.propose', 'profile.update']);
    expect(dataOf(events, 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['completed', WRITTEN],
      ['completed', `The user applied the proposal: profile.update returned ${WRITTEN}`],
    ]);
    expect(answerOf(events)).toBe('Done: your profile now shows the new display name and bio.');
  });

  it('Dismiss records the decision, runs no write, and a late Apply is 409', async () => {
    const { server, runId, run, path, argsDigest } = await startProposal();
    expect((await server.request(path, { body: { decision: 'deny', argsDigest } })).status).toBe(200);
    const late = await server.request(path, { body: { decision: 'allow', argsDigest } });
    expect([late.status, (await json(late)).code]).toEqual([409, 'INTERRUPT_ALREADY_RESOLVED']);
    const events = await finished(server, runId, run);
    expect(dataOf(events, 'TOOL_CALL_START').map((d) => d.toolCallName)).toEqual(['profile.propose']);
    expect(resourceFromEvents(events).interrupts.map((i) => [i.state, i.decision])).toEqual([['resolved', 'deny']]);
    expect(answerOf(events)).toBe(
      'Understood: your profile stays as it was. (The user dismissed the proposal, so nothing was changed.)',
    );
  });
});
