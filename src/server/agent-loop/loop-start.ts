import type { ModelMessage } from '../models/model-adapter.ts';
import type { PendingEvent } from '../runs/run-handle.ts';
import type { RunContext } from './engine-options.ts';
import { LoopStop, stopWithError } from './loop-stop.ts';
import type { ResumePlan } from './resume-plan.ts';
import { planResume } from './resume-plan.ts';
import { RUN_ABANDONED_MESSAGE } from '../runs/forced-endings.ts';
import { buildUserMessage } from './user-message.ts';

/** Where the loop starts: a new run's first round, or a resumed run's open round. */
export interface LoopStart {
  /** The run's own messages so far (its input first); the prompt layers and history are added per call. */
  messages: ModelMessage[];
  round: number;
  /** The open round's announced tool calls (a resume): the round goes on from them. */
  turn?: ResumePlan['turn'];
}

/**
 * Starts a new run: `RUN_STATUS_CHANGED{running}` with `notices` (unless it is cancelling), then
 * round 1 after the input.
 */
export async function startFresh(context: RunContext, notices: readonly PendingEvent[]): Promise<LoopStart> {
  const { handle, writer } = context;
  const started = await writer.transact((s) =>
    s.status === 'cancelling' || handle.signal.aborted
      ? []
      : [{ type: 'RUN_STATUS_CHANGED', data: { status: 'running' } }, ...notices],
  );
  if (started.length === 0) throw new LoopStop({ kind: 'cancel' });
  return { messages: [await buildUserMessage(handle)], round: 1 };
}

/**
 * Starts a resumed run from its log (docs/agent-loop.md, "Resume"): the rebuilt conversation and
 * its open round; a log with nothing to wait for ends the run `RUN_ABANDONED` (retryable).
 */
export async function startFromLog(context: RunContext): Promise<LoopStart> {
  const { settings, handle } = context;
  const plan = planResume(await handle.readLog(), {
    inputText: handle.input.text,
    maxResultChars: settings.limits.maxResultChars,
  });
  if (plan === null) {
    throw stopWithError('RUN_ABANDONED', RUN_ABANDONED_MESSAGE, true);
  }
  const [, ...rest] = plan.messages;
  return { messages: [await buildUserMessage(handle), ...rest], round: plan.round, turn: plan.turn };
}
