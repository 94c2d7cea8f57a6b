import { describe, expect, it } from 'vitest';
import type { SnapshotToolCall } from '../protocol.ts';
import type { ToolRunnerPhase } from '../client/client-state.ts';
import { describeToolCall, toolPlaceOf } from './tool-place.ts';
import { EN_TOOL_RUNNER_STRINGS as strings } from './tool-runner-strings.ts';
import { reduceToolRunnerView } from './tool-runner-view.ts';

const call: SnapshotToolCall = {
  toolCallId: 'tc_1',
  name: 'cart.add',
  status: 'running',
  executor: { kind: 'browser', executorId: 'exe_1' },
};
const serverCall: SnapshotToolCall = { toolCallId: 'tc_2', name: 'orders.lookup', status: 'completed' };
const viewWith = (phase: ToolRunnerPhase) => ({ calls: { tc_1: phase } });

describe('toolPlaceOf', () => {
  it('follows this page runner’s phase, and the log’s reconciliation flag first', () => {
    expect(toolPlaceOf(call, { calls: {} })).toBe(null);
    expect(toolPlaceOf(call, viewWith('running'))).toBe('here');
    expect(toolPlaceOf(call, viewWith('claiming'))).toBe('here');
    expect(toolPlaceOf(call, viewWith('elsewhere'))).toBe('elsewhere');
    expect(toolPlaceOf(call, viewWith('needs_reconciliation'))).toBe('reconcile');
    const flagged = { ...call, executor: { kind: 'browser' as const, reconciliation: 'required' as const } };
    expect(toolPlaceOf(flagged, { calls: {} })).toBe('reconcile');
    expect(toolPlaceOf(serverCall, viewWith('running'))).toBe(null);
  });
});

describe('describeToolCall', () => {
  it('says where a browser call runs with its status, and nothing for a server tool', () => {
    const completed = { ...call, status: 'completed' as const };
    expect([
      describeToolCall(call, viewWith('running'), strings),
      describeToolCall(completed, viewWith('done'), strings),
      describeToolCall(call, viewWith('elsewhere'), strings),
      describeToolCall(call, viewWith('needs_reconciliation'), strings),
      describeToolCall({ ...call, status: 'awaiting_executor' }, { calls: {} }, strings),
      describeToolCall({ ...call, status: 'expired' }, viewWith('done'), strings),
      describeToolCall(serverCall, viewWith('running'), strings),
    ]).toEqual([
      'Running in this browser',
      'Completed in this browser',
      'Running in another tab or browser',
      'Needs reconciliation',
      'Waiting for the browser',
      undefined,
      undefined,
    ]);
  });
});

describe('reduceToolRunnerView', () => {
  it('keeps the note of every browser call it has a part in, and the same view while they stay', () => {
    const started = reduceToolRunnerView(null, { type: 'started', executorId: 'exe_1' });
    expect(started).toEqual({ executorId: 'exe_1', calls: {}, notes: {} });
    const claiming = reduceToolRunnerView(started, { type: 'phaseChanged', toolCallId: 'tc_1', phase: 'claiming' });
    const seen = reduceToolRunnerView(claiming, { type: 'toolCallsSeen', toolCalls: [call, serverCall], strings });
    expect(seen).toEqual({
      executorId: 'exe_1',
      calls: { tc_1: 'claiming' },
      notes: { tc_1: 'Running in this browser' },
    });
    expect(reduceToolRunnerView(seen, { type: 'toolCallsSeen', toolCalls: [call, serverCall], strings })).toBe(seen);
    const elsewhere = reduceToolRunnerView(seen, { type: 'phaseChanged', toolCallId: 'tc_1', phase: 'elsewhere' });
    expect(reduceToolRunnerView(elsewhere, { type: 'toolCallsSeen', toolCalls: [call], strings })?.notes).toEqual({
      tc_1: 'Running in another tab or browser',
    });
    expect(reduceToolRunnerView(null, { type: 'toolCallsSeen', toolCalls: [call], strings })).toBe(null);
    expect(reduceToolRunnerView(seen, { type: 'stopped' })).toBe(null);
  });
});
