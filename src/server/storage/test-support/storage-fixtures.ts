import type { EventEnvelope, RunSnapshot } from '../../../core/protocol.ts';
import { foldExecutorEvents } from '../../../core/state/fold-executor-events.ts';
import { reduceRunEvents } from '../../../core/state/run-reducer.ts';
import type { EventFactory } from '../../../core/state/test-support/events.ts';
import { eventFactory } from '../../../core/state/test-support/events.ts';
import type { AgentStorage, CreateRunCommand, StoredSession } from '../storage-port.ts';

/** The agent version every fixture run is pinned to. */
export const FIXTURE_VERSION = 'agv_test_1';

/** A run the fixtures created: its event factory (seq 1 was RUN_STARTED) and its ids. */
export interface FixtureRun {
  runId: string;
  sessionId: string;
  events: EventFactory;
  started: EventEnvelope<'RUN_STARTED'>;
}

/** Builds the `createRun` command of run `runId` (a new session unless `sessionId` names one). */
export function createRunCommand(options: {
  runId: string;
  sessionId: string;
  subjectId?: string;
  isNewSession: boolean;
  text?: string;
  /** The version the session and run are pinned to (default {@link FIXTURE_VERSION}). */
  agentVersionId?: string;
  leaseOwner?: string;
  leaseExpiresAt?: number;
  idempotency?: CreateRunCommand['idempotency'];
  /** The ended run this one answers again (`CreateRunCommand.replacesRunId`, and the start's, as a retry has it). */
  replacesRunId?: string;
  /** The message the run's turn follows (`RunStart.parentMessageId`; null: the start; omitted: a run made before branches). */
  parentMessageId?: string | null;
  /** Ended runs whose messages leave the history with this create (`CreateRunCommand.leavesHistory`). */
  leavesHistory?: readonly string[];
  /** Moves every timestamp of the run (its creation, and its end through `finishFixtureRun`) this much later. */
  laterMs?: number;
}): { command: CreateRunCommand; run: FixtureRun } {
  const subjectId = options.subjectId ?? 'alice';
  const events = laterBy(eventFactory(options.runId, options.sessionId), options.laterMs ?? 0);
  const text = options.text ?? `Hello from ${options.runId}`;
  const userMessageId = `msg_user_${options.runId}`;
  const agentVersionId = options.agentVersionId ?? FIXTURE_VERSION;
  const started = events.next('RUN_STARTED', {
    protocolVersion: '1.0',
    agent: { agentId: 'agt_test', versionId: agentVersionId },
    input: { messageId: userMessageId, content: [{ type: 'text', text }] },
  });
  const createdAt = started.timestamp;
  const session: StoredSession = {
    sessionId: options.sessionId,
    subjectId,
    agentVersionId,
    title: null,
    createdAt,
    updatedAt: createdAt,
    activeRunId: options.runId,
    lastRunId: options.runId,
  };
  const command: CreateRunCommand = {
    session: options.isNewSession ? { kind: 'new', session } : { kind: 'existing', sessionId: options.sessionId },
    run: {
      runId: options.runId,
      sessionId: options.sessionId,
      subjectId,
      userMessageId,
      createdAt,
      start: {
        subject: { id: subjectId },
        input: { messageId: userMessageId, text },
        options: { modelId: 'scripted' },
        ...(options.parentMessageId === undefined ? {} : { parentMessageId: options.parentMessageId }),
        ...(options.replacesRunId === undefined ? {} : { replacesRunId: options.replacesRunId }),
      },
    },
    started,
    title: text,
    lease: { owner: options.leaseOwner ?? 'proc_a', expiresAt: options.leaseExpiresAt ?? createdAt + 10_000 },
    ...(options.idempotency === undefined ? {} : { idempotency: options.idempotency }),
    ...(options.replacesRunId === undefined ? {} : { replacesRunId: options.replacesRunId }),
    ...(options.leavesHistory === undefined ? {} : { leavesHistory: options.leavesHistory }),
  };
  return { command, run: { runId: options.runId, sessionId: options.sessionId, events, started } };
}

/** `events` with every timestamp `laterMs` later. */
function laterBy(events: EventFactory, laterMs: number): EventFactory {
  if (laterMs === 0) return events;
  return {
    runId: events.runId,
    sessionId: events.sessionId,
    next(type, data) {
      const event = events.next(type, data);
      return { ...event, timestamp: event.timestamp + laterMs };
    },
    at(seq, type, data) {
      const event = events.at(seq, type, data);
      return { ...event, timestamp: event.timestamp + laterMs };
    },
  };
}

/** Creates a run through `storage` and fails the test when the store refuses it. */
export async function createFixtureRun(
  storage: AgentStorage,
  options: Parameters<typeof createRunCommand>[0],
): Promise<FixtureRun> {
  const { command, run } = createRunCommand(options);
  const outcome = await storage.createRun(command);
  if (outcome.kind !== 'created') throw new Error(`createRun refused: ${outcome.kind}`);
  return run;
}

/**
 * Ends `run` with an assistant answer `answer` and `RUN_FINISHED` (after an `orders.lookup` call
 * and its result when `toolCallId` is given), appended after seq 1 in one batch with its final
 * snapshot. Returns that snapshot.
 */
export async function finishFixtureRun(
  storage: AgentStorage,
  run: FixtureRun,
  answer: string,
  options: { toolCallId?: string } = {},
): Promise<RunSnapshot> {
  const messageId = `msg_answer_${run.runId}`;
  const { toolCallId } = options;
  const toolCall: EventEnvelope[] =
    toolCallId === undefined
      ? []
      : [
          run.events.next('TOOL_CALL_START', { toolCallId, toolCallName: 'orders.lookup' }),
          run.events.next('TOOL_CALL_END', { toolCallId, args: { orderId: 'A-1' }, argsDigest: 'sha256:x' }),
          run.events.next('TOOL_CALL_RESULT', {
            toolCallId,
            messageId: `msg_result_${toolCallId}`,
            content: '{"status":"shipped"}',
            status: 'completed',
          }),
        ];
  const batch: EventEnvelope[] = [
    ...toolCall,
    run.events.next('TEXT_MESSAGE_START', { messageId, role: 'assistant' }),
    run.events.next('TEXT_MESSAGE_CONTENT', { messageId, delta: answer }),
    run.events.next('TEXT_MESSAGE_END', { messageId, finishReason: 'stop' }),
    run.events.next('RUN_FINISHED', { outcome: { type: 'success' } }),
  ];
  const finalSnapshot = reduceRunEvents([run.started, ...batch], undefined, foldExecutorEvents);
  await storage.appendEvents(run.runId, 1, batch, { finalSnapshot });
  return finalSnapshot;
}
