import { describe, expect, it } from 'vitest';
import type { RunSnapshot } from '../../core/protocol.ts';
import { closeOpenItems } from '../runs/close-open-items.ts';
import type { PendingEvent } from '../runs/run-handle.ts';
import type { ToolDefinition } from '../tools/tool-registry.ts';
import type { ListModelStep } from './test-support/list-model.ts';
import { createListModel } from './test-support/list-model.ts';
import { dataOf, settle, startEngine } from './test-support/run-engine-harness.ts';

const answer: ListModelStep[] = [
  { type: 'text', delta: 'Done.' },
  { type: 'finish', reason: 'stop' },
];
const toolRound = (name: string): ListModelStep[] => [
  { type: 'tool_call', id: 'c1', name, arguments: '{}' },
  { type: 'finish', reason: 'tool_calls' },
];
const hasText = (s: RunSnapshot): boolean => s.messages.some((m) => m.role === 'assistant' && m.content.length > 0);

describe('cancel', () => {
  it('during model streaming closes the message as cancelled, then RUN_FINISHED{cancelled, reason}', async () => {
    const run = startEngine('/slow');
    await run.until(hasText);
    await run.cancel('user pressed stop');
    await run.done;
    expect(run.types().slice(-3)).toEqual(['RUN_STATUS_CHANGED', 'TEXT_MESSAGE_END', 'RUN_FINISHED']);
    expect(dataOf(run.events(), 'TEXT_MESSAGE_END')).toEqual([{ messageId: 'msg_2', finishReason: 'cancelled' }]);
    expect(dataOf(run.events(), 'RUN_FINISHED')).toEqual([
      { outcome: { type: 'cancelled', reason: 'user pressed stop' } },
    ]);
    expect(run.handle.snapshot().status).toBe('cancelled');
    expect(run.types().includes('MESSAGE_DISCARDED')).toBe(false);
  });

  it('during a tool that confirms it stopped reports cancelled', async () => {
    const run = startEngine('/progress');
    await run.until((s) => s.toolCalls[0]?.progress !== undefined);
    await run.cancel();
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['cancelled', 'Stopped after 1 of 4 sections.'],
    ]);
    expect(dataOf(run.events(), 'RUN_FINISHED').map((d) => d.outcome)).toEqual([{ type: 'cancelled' }]);
  });

  it('during a tool that never confirms reports unknown after the grace period', async () => {
    const stuck: ToolDefinition = {
      name: 'stuck',
      description: 'never ends',
      parameters: { type: 'object' },
      policy: 'allow',
      run: () => new Promise(() => undefined),
    };
    const run = startEngine('go', {
      model: createListModel([toolRound('stuck'), answer]),
      tools: [stuck],
      limits: { toolStopGraceMs: 2000 },
    });
    await run.until((s) => s.toolCalls.length === 1);
    await settle();
    await run.cancel();
    await settle();
    expect(run.handle.snapshot().status).toBe('cancelling');
    run.clock.advance(2000);
    await run.done;
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => [d.status, d.content])).toEqual([
      ['unknown', 'The run stopped while the tool was running; its outcome is unknown.'],
    ]);
    expect(run.handle.snapshot().status).toBe('cancelled');
  });

  it('while awaiting approval cancels the interrupt and the unrun tool call', async () => {
    const run = startEngine('/approval');
    await run.until((s) => s.status === 'awaiting_input');
    await run.cancel('changed my mind');
    await run.done;
    expect(run.types().slice(-4)).toEqual([
      'RUN_STATUS_CHANGED',
      'INTERRUPT_RESOLVED',
      'TOOL_CALL_RESULT',
      'RUN_FINISHED',
    ]);
    expect(dataOf(run.events(), 'INTERRUPT_RESOLVED')).toEqual([
      { interruptId: 'int_1', status: 'cancelled', resolvedBy: 'cancel' },
    ]);
    // drafts.list ran in round 1; the deletion waiting for approval is what the cancel stops.
    expect(dataOf(run.events(), 'TOOL_CALL_RESULT').map((d) => d.status)).toEqual(['completed', 'cancelled']);
    expect(dataOf(run.events(), 'RUN_FINISHED').map((d) => d.outcome)).toEqual([
      { type: 'cancelled', reason: 'changed my mind' },
    ]);
  });

  it('wins over a completion that races it', async () => {
    const run = startEngine('/echo done');
    const transact = run.handle.transact.bind(run.handle);
    let hasCancelled = false;
    run.handle.transact = async (build: (s: RunSnapshot) => readonly PendingEvent[]) => {
      if (!hasCancelled && run.types().at(-1) === 'STEP_FINISHED') {
        hasCancelled = true;
        await run.cancel('late');
      }
      return transact(build);
    };
    await run.done;
    expect(run.types().slice(-3)).toEqual(['STEP_FINISHED', 'RUN_STATUS_CHANGED', 'RUN_FINISHED']);
    expect(dataOf(run.events(), 'RUN_FINISHED').map((d) => d.outcome)).toEqual([{ type: 'cancelled', reason: 'late' }]);
  });

  it('stops quietly when someone else ended the run (RunClosedError)', async () => {
    const run = startEngine('/slow');
    await run.until(hasText);
    // What a reaper does: close what is open, then its own terminal event.
    await run.handle.transact((s) => [
      ...closeOpenItems(s, { reason: 'error', newMessageId: () => 'msg_reaper' }),
      { type: 'RUN_ERROR', data: { code: 'RUN_ABANDONED', message: 'The run was abandoned.', retryable: true } },
    ]);
    await run.done;
    expect(run.types().at(-1)).toBe('RUN_ERROR');
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => d.code)).toEqual(['RUN_ABANDONED']);
  });
});

describe('inputs during a run', () => {
  it('are consumed at the next round boundary; the run never succeeds with one pending', async () => {
    let inputId = '';
    const model = createListModel([
      [
        { type: 'text', delta: 'First.' },
        {
          type: 'call',
          run: async () => {
            inputId = await run.addInput('and one more thing');
          },
        },
        { type: 'finish', reason: 'stop' },
      ],
      answer,
    ]);
    const run = startEngine('go', { model });
    await run.done;
    expect(inputId).toBe('inp_1');
    expect(dataOf(run.events(), 'STEP_STARTED')).toEqual([
      { stepName: 'round:1' },
      { stepName: 'round:2', consumedInputIds: ['inp_1'] },
    ]);
    expect(model.requests[1]?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'First.' },
      { role: 'user', content: 'and one more thing' },
    ]);
    const snapshot = run.handle.snapshot();
    expect(snapshot.status).toBe('completed');
    expect(snapshot.inputs).toEqual([{ inputId: 'inp_1', messageId: 'msg_input_1', state: 'consumed' }]);
  });

  it('added while a tool runs are consumed by the round after it', async () => {
    const slowTool: ToolDefinition = {
      name: 'slow',
      description: 'slow',
      parameters: { type: 'object' },
      policy: 'allow',
      run: async () => {
        await run.addInput('meanwhile');
        return 'ok';
      },
    };
    const run = startEngine('go', { model: createListModel([toolRound('slow'), answer]), tools: [slowTool] });
    await run.done;
    expect(dataOf(run.events(), 'STEP_STARTED')).toEqual([
      { stepName: 'round:1' },
      { stepName: 'round:2', consumedInputIds: ['inp_1'] },
    ]);
  });

  it('left pending at a cancel are listed in unconsumedInputIds', async () => {
    const run = startEngine('/slow');
    await run.until(hasText);
    await run.addInput('wait, also this');
    await run.cancel();
    await run.done;
    expect(dataOf(run.events(), 'RUN_FINISHED')).toEqual([
      { outcome: { type: 'cancelled' }, unconsumedInputIds: ['inp_1'] },
    ]);
  });

  it('left pending when the round cap hits are listed with MAX_ITERATIONS', async () => {
    const model = createListModel([
      toolRound('orders.lookup'),
      [{ type: 'call', run: () => run.addInput('still there?') }, ...toolRound('orders.lookup')],
    ]);
    const run = startEngine('go', { model, limits: { maxRounds: 2 } });
    await run.done;
    expect(dataOf(run.events(), 'RUN_ERROR').map((d) => [d.code, d.unconsumedInputIds])).toEqual([
      ['MAX_ITERATIONS', ['inp_1']],
    ]);
  });
});
