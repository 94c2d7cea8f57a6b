import { describe, expect, it } from 'vitest';
import { createInitialClientState, type SnapshotInterrupt, type SnapshotToolCall } from '../../core/index.ts';
import { EN_STRINGS as en } from '../i18n/en.ts';
import { createMessage } from '../test-support/mount-agent-chat.ts';
import type { TranscriptItem } from './build-transcript-items.ts';
import { buildRowView, rowInputsOf, type RowViewSources } from './row-view.ts';

const toolCall: SnapshotToolCall = { toolCallId: 't1', name: 'drafts.delete', status: 'awaiting_approval' };
const interrupt: SnapshotInterrupt = { id: 'i1', reason: 'tool_call', toolCallId: 't1', state: 'open' };
const sources = (patch: Partial<RowViewSources> = {}): RowViewSources => ({
  state: createInitialClientState(),
  strings: en,
  locale: 'en',
  isReasoningOpen: () => true,
  now: Date.parse('2026-11-29T13:40:00Z'),
  toolCards: 'loading',
  turnEnds: new Set(),
  turnActions: undefined,
  ...patch,
});

describe('buildRowView', () => {
  it('gives each kind of row exactly the values its template reads', () => {
    const reasoning = createMessage({ messageId: 'r1', role: 'reasoning' });
    const assistant = createMessage({ messageId: 'a1' });
    const getReferences = () => [];
    const toolItem: TranscriptItem = { kind: 'tool', key: 'tool:t1', toolCall, interrupts: [interrupt] };
    const state = { ...createInitialClientState(), submittingInterruptIds: ['i1'] };
    expect(buildRowView({ kind: 'message', key: 'message:r1', message: reasoning }, 0, sources())).toEqual({
      kind: 'reasoning',
      message: reasoning,
      strings: en,
      isOpen: true,
      isDiscarded: false,
    });
    expect(
      buildRowView(
        { kind: 'message', key: 'message:a1', message: assistant },
        1,
        sources({ getReferences, turnEnds: new Set(['a1']) }),
      ),
    ).toEqual({
      kind: 'assistant',
      message: assistant,
      strings: en,
      getReferences,
      isDiscarded: false,
      isInterrupted: false,
      isTurnEnd: true,
      actions: undefined,
    });
    expect(buildRowView(toolItem, -1, sources({ state }))).toEqual({
      kind: 'tool',
      toolCall,
      renderer: undefined,
      cards: 'loading',
      approvals: [{ interrupt, isSubmitting: true, expiresIn: '', cards: 'loading' }],
      strings: en,
    });
    const error = {
      code: 'MODEL_ERROR',
      message: 'Failed.',
      reference: null,
      retryable: false,
      source: 'run' as const,
    };
    expect(buildRowView({ kind: 'failure', key: 'failure:run-1', error }, -1, sources())).toEqual({
      kind: 'failure',
      error,
      strings: en,
      canRetry: false,
    });
    expect(buildRowView({ kind: 'interrupt', key: 'interrupt:i1', interrupt }, -1, sources())).toEqual({
      kind: 'interrupt',
      interrupt,
      isSubmitting: false,
      expiresIn: '',
      cards: 'loading',
      strings: en,
    });
  });

  it("offers Retry on a failed run's row only while it is the client's retryable error", () => {
    const error = {
      code: 'MODEL_ERROR',
      message: 'Failed.',
      reference: null,
      retryable: true,
      source: 'run' as const,
      runId: 'run-1',
    };
    const item: TranscriptItem = { kind: 'failure', key: 'failure:run-1', error };
    const canRetry = (current: typeof error | null) =>
      buildRowView(item, -1, sources({ state: { ...createInitialClientState(), error: current } }));
    expect(canRetry(error)).toMatchObject({ canRetry: true });
    expect(canRetry({ ...error, retryable: false })).toMatchObject({ canRetry: false });
    expect(canRetry({ ...error, runId: 'run-2' })).toMatchObject({ canRetry: false });
    expect(canRetry(null)).toMatchObject({ canRetry: false });
  });
});

describe('rowInputsOf', () => {
  const toolItem: TranscriptItem = { kind: 'tool', key: 'tool:t1', toolCall, interrupts: [interrupt] };

  it('is equal, value by value, for two views built from the same sources', () => {
    const first = rowInputsOf(buildRowView(toolItem, -1, sources()));
    const second = rowInputsOf(buildRowView(toolItem, -1, sources()));
    expect(first).toEqual(['tool', toolCall, undefined, undefined, 'loading', en, interrupt, false, 'loading', '']);
    expect(second.every((input, index) => input === first[index])).toBe(true);
  });

  it("changes when the submitting flag, the renderer, the tool runner's note, the approval card's load, or the expiry as said in the locale at that time changes", () => {
    const expiring: TranscriptItem = {
      ...toolItem,
      interrupts: [{ ...interrupt, expiresAt: '2026-11-29T13:54:30Z' }],
    } as TranscriptItem;
    const inputs = rowInputsOf(buildRowView(expiring, -1, sources()));
    expect(inputs.at(-1)).toBe('in 15 minutes');
    const submitting = { ...createInitialClientState(), submittingInterruptIds: ['i1'] };
    const renderer = () => document.createElement('span');
    const runnerHere = {
      ...createInitialClientState(),
      toolRunner: { executorId: 'exe_1', calls: { t1: 'running' as const }, notes: { t1: 'Running in this browser' } },
    };
    for (const changed of [
      sources({ state: runnerHere }),
      sources({ state: submitting }),
      sources({ locale: 'de' }),
      sources({ now: Date.parse('2026-11-29T13:41:00Z') }),
      sources({ renderers: { 'drafts.delete': renderer } }),
      sources({ toolCards: 'failed' }),
    ]) {
      const next = rowInputsOf(buildRowView(expiring, -1, changed));
      expect(next.some((input, index) => input !== inputs[index])).toBe(true);
    }
  });
});
