import { describe, expect, it } from 'vitest';
import { createEmptyRunSnapshot } from '../state/run-reducer.ts';
import { createClientStore } from './client-store.ts';

describe('createClientStore', () => {
  it('keeps the reason of each tool call that ended its run on purpose, by tool call id, from every run it followed', () => {
    const store = createClientStore();
    const run = (runId: string, outcome: ReturnType<typeof createEmptyRunSnapshot>['outcome']) => ({
      ...createEmptyRunSnapshot(runId, 'ses_1'),
      status: 'completed' as const,
      outcome,
    });
    store.dispatch({
      type: 'runLoaded',
      snapshot: run('run_1', { type: 'stopped', reason: 'Order placed', toolCallId: 'call_1' }),
    });
    store.dispatch({ type: 'runLoaded', snapshot: run('run_2', { type: 'success' }) });
    store.dispatch({ type: 'runLoaded', snapshot: run('run_3', { type: 'stopped', reason: 'No tool named' }) });
    store.dispatch({
      type: 'runLoaded',
      snapshot: run('run_4', { type: 'stopped', reason: 'Handed over', toolCallId: 'call_9' }),
    });
    expect(store.getState().toolStops).toEqual({ call_1: 'Order placed', call_9: 'Handed over' });
  });
});
