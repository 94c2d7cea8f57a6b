import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../core/protocol.ts';
import type { ModelChunk } from '../models/model-adapter.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, foldTypes, settle, startEngine } from './test-support/run-engine-harness.ts';

const SYSTEM = { role: 'system', content: expect.any(String), layer: 'kernel' };
const DELETE_ARGS = { draftId: 'draft-42' };
const LOOKUP_ARGS = { orderId: 'A-1001' };
const FIRST_TURN: ModelChunk[] = [
  { type: 'text', delta: 'Deleting the draft, then looking up the order.' },
  { type: 'tool_call', id: 'call_a', name: 'drafts.delete', arguments: JSON.stringify(DELETE_ARGS) },
  { type: 'tool_call', id: 'call_b', name: 'orders.lookup', arguments: JSON.stringify(LOOKUP_ARGS) },
  { type: 'finish', reason: 'tool_calls' },
];
const SECOND_TURN: ModelChunk[] = [
  { type: 'text', delta: 'Done: the draft is gone.' },
  { type: 'finish', reason: 'stop' },
];
const isAwaiting = (s: { status: string }): boolean => s.status === 'awaiting_input';

/** Runs the first process until it waits for the approval and returns its log (the process then "dies"). */
async function logUntilApproval(): Promise<EventEnvelope[]> {
  const first = startEngine('Delete draft 42', { model: createListModel([FIRST_TURN, SECOND_TURN]) });
  await first.until(isAwaiting);
  return first.events();
}

/** Starts the second process's engine on `log`, with ids that cannot collide with the first's. */
function resumeOn(log: readonly EventEnvelope[], startAt = 1_800_000_060_000) {
  let count = 0;
  const model = createListModel([SECOND_TURN]);
  const run = startEngine('Delete draft 42', {
    model,
    resumeLog: log,
    startAt,
    ids: (prefix) => `${prefix}_r${(count += 1)}`,
  });
  return { run, model };
}

describe('resuming a run from its log', () => {
  it('waits for the open approval again, runs the calls, and rebuilds the conversation for the next round', async () => {
    const log = await logUntilApproval();
    expect(log.at(-1)?.type).toBe('RUN_STATUS_CHANGED');
    const { run, model } = resumeOn(log);
    const waiting = await run.until(isAwaiting);
    expect(waiting.interrupts.map((i) => [i.id, i.state])).toEqual([['int_1', 'open']]);
    await run.decide('int_1', 'allow');
    await run.done;

    expect(foldTypes(run.events().slice(log.length))).toEqual([
      'INTERRUPT_RESOLVED',
      'RUN_STATUS_CHANGED',
      'TOOL_CALL_RESULT',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT*',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    const results = dataOf(run.events(), 'TOOL_CALL_RESULT');
    expect(results.map((r) => [r.toolCallId, r.status])).toEqual([
      ['tc_1', 'completed'],
      ['tc_2', 'completed'],
    ]);
    expect(dataOf(run.events(), 'STEP_STARTED').map((s) => s.stepName)).toEqual(['round:1', 'round:2']);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.messages).toEqual([
      SYSTEM,
      { role: 'user', content: 'Delete draft 42' },
      {
        role: 'assistant',
        content: 'Deleting the draft, then looking up the order.',
        toolCalls: [
          { id: 'tc_1', name: 'drafts.delete', arguments: JSON.stringify(DELETE_ARGS) },
          { id: 'tc_2', name: 'orders.lookup', arguments: JSON.stringify(LOOKUP_ARGS) },
        ],
      },
      { role: 'tool', toolCallId: 'tc_1', content: results[0]?.content, status: 'completed' },
      { role: 'tool', toolCallId: 'tc_2', content: results[1]?.content, status: 'completed' },
    ]);
    expect(run.handle.snapshot()).toEqual(
      expect.objectContaining({ status: 'completed', outcome: { type: 'success' } }),
    );
  });

  it('goes on without waiting when the answer came while no process ran the loop', async () => {
    const log = await logUntilApproval();
    const answered: EventEnvelope = {
      ...(log.at(-1) as EventEnvelope),
      eventId: 'evt_answer',
      seq: log.length + 1,
      cursor: String(log.length + 1),
      type: 'INTERRUPT_RESOLVED',
      data: { interruptId: 'int_1', status: 'resolved', decision: 'deny', resolvedBy: 'user' },
    };
    const { run } = resumeOn([...log, answered]);
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((r) => [r.toolCallId, r.status, r.content])).toEqual([
      ['tc_1', 'denied', 'The user denied this tool call, so it was not run.'],
      ['tc_2', 'completed', expect.stringContaining('A-1001')],
    ]);
    expect(run.handle.snapshot().status).toBe('completed');
  });

  it('expires an approval whose time ran out while the server was down, as a deny', async () => {
    const log = await logUntilApproval();
    const expiresAt = Date.parse(dataOf(log, 'INTERRUPT_REQUESTED')[0]?.interrupt.expiresAt ?? 'missing expiresAt');
    const { run } = resumeOn(log, expiresAt + 1);
    // The wait arms its expiry timer with what is left of the TTL: nothing.
    while (!run.clock.delays.includes(0)) await settle();
    run.clock.advance(0);
    await run.done;
    expect(dataOf(run.events(), 'INTERRUPT_RESOLVED')).toEqual([
      { interruptId: 'int_1', status: 'expired', decision: 'deny', resolvedBy: 'timeout' },
    ]);
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT')[0]).toEqual(
      expect.objectContaining({
        toolCallId: 'tc_1',
        status: 'denied',
        content: 'Nobody approved this tool call in time, so it was not run.',
      }),
    );
  });

  it('ends a run with nothing to wait for as RUN_ABANDONED after closing its partial answer', async () => {
    const first = startEngine('/slow');
    await first.until((s) => s.messages.some((m) => m.role === 'assistant' && m.content.length > 0));
    const log = first.events();
    const { run } = resumeOn(log);
    await run.done;
    expect(
      run
        .events()
        .slice(log.length)
        .map((e) => e.type),
    ).toEqual(['TEXT_MESSAGE_END', 'RUN_ERROR']);
    expect(dataOf(run.events(), 'RUN_ERROR')).toEqual([
      {
        code: 'RUN_ABANDONED',
        message: 'The server stopped while this answer was being written. You can try again.',
        retryable: true,
        correlationId: expect.any(String),
      },
    ]);
    const answer = run.handle.snapshot().messages.find((m) => m.role === 'assistant');
    expect(answer).toEqual(expect.objectContaining({ status: 'error', finishReason: 'error' }));
    expect(answer?.content).toBe(first.handle.snapshot().messages.find((m) => m.role === 'assistant')?.content);
  });
});
