import type { EventDataMap, EventEnvelope, EventType, RunSnapshot, SnapshotMessage } from '../../../core/protocol.ts';
import { isTerminalRunStatus, PROTOCOL_VERSION } from '../../../core/protocol.ts';
import { foldExecutorEvents } from '../../../core/state/fold-executor-events.ts';
import { createEmptyRunSnapshot, reduceRun } from '../../../core/state/run-reducer.ts';
import type { PendingEvent, RunHandle, RunInput } from '../../runs/run-handle.ts';
import type { SettledToolCall } from '../../runs/run-handle.ts';
import { RunClosedError } from '../../runs/run-handle.ts';

/** Options of {@link createMemoryRunHandle}. */
export interface MemoryRunHandleOptions {
  text: string;
  history?: SnapshotMessage[];
  historyToolCalls?: SettledToolCall[];
  /** What the send added for the model (instruction, focus, attachments). */
  input?: Omit<RunInput, 'messageId' | 'text'>;
  options?: RunHandle['options'];
  /** The agent version of the run's `RUN_STARTED` (default `agv_test`). */
  versionId?: string;
  now?: () => number;
  reasoningEffort?: 'low' | 'medium' | 'high';
  /** Continue this log (a run another process wrote) instead of starting with `RUN_STARTED`. */
  log?: readonly EventEnvelope[];
}

/** An in-memory run with the moves the HTTP layer would make, for engine tests. */
export interface MemoryRun {
  handle: RunHandle;
  events(): EventEnvelope[];
  types(): EventType[];
  /** What `POST /cancel` does: `RUN_STATUS_CHANGED{cancelling}`, then aborts the signal. */
  cancel(reason?: string): Promise<void>;
  /** What `POST /interrupts/{id}` does once its checks pass. */
  decide(interruptId: string, decision: 'allow' | 'deny'): Promise<void>;
  /** What `POST /inputs` does: the user echo, atomically. Resolves with the input id. */
  addInput(text: string): Promise<string>;
  /** Resolves with the first snapshot (now or later) for which `predicate` holds. */
  until(predicate: (snapshot: RunSnapshot) => boolean): Promise<RunSnapshot>;
}

/**
 * Creates a `RunHandle` over an in-memory log that uses the real reducer: appends get seq,
 * cursor and envelope, `transact` is atomic, waiters re-check after every append, and nothing is
 * accepted after the terminal event (`RunClosedError`). `RUN_STARTED` is seq 1.
 */
export function createMemoryRunHandle(options: MemoryRunHandleOptions): MemoryRun {
  const runId = 'run_1';
  const sessionId = 'ses_1';
  const now = options.now ?? (() => 0);
  const controller = new AbortController();
  const log: EventEnvelope[] = [...(options.log ?? [])];
  let snapshot = log.reduce((s, e) => reduceRun(s, e, foldExecutorEvents), createEmptyRunSnapshot(runId, sessionId));
  let inputCount = 0;
  const waiters = new Set<() => void>();

  const write = (type: EventType, data: unknown): EventEnvelope => {
    if (isTerminalRunStatus(snapshot.status)) throw new RunClosedError(runId);
    const seq = log.length + 1;
    const event = {
      v: 1,
      eventId: `evt_${seq}`,
      runId,
      sessionId,
      seq,
      cursor: String(seq),
      type,
      timestamp: now(),
      data,
    } as EventEnvelope;
    log.push(event);
    snapshot = reduceRun(snapshot, event, foldExecutorEvents);
    for (const waiter of [...waiters]) waiter();
    return event;
  };
  if (log.length === 0)
    write('RUN_STARTED', {
      protocolVersion: PROTOCOL_VERSION,
      agent: { agentId: 'agt_test', versionId: options.versionId ?? 'agv_test' },
      input: { messageId: 'msg_user', content: [{ type: 'text', text: options.text }] },
    } satisfies EventDataMap['RUN_STARTED']);

  const handle: RunHandle = {
    runId,
    sessionId,
    subject: { id: 'usr_1' },
    input: { messageId: 'msg_user', text: options.text, ...options.input },
    options: {
      ...(options.reasoningEffort === undefined ? {} : { reasoningEffort: options.reasoningEffort }),
      ...options.options,
    },
    history: options.history ?? [],
    ...(options.historyToolCalls === undefined ? {} : { historyToolCalls: options.historyToolCalls }),
    signal: controller.signal,
    append: async <T extends EventType>(type: T, data: EventDataMap[T]) => {
      await Promise.resolve();
      return write(type, data) as EventEnvelope<T>;
    },
    transact: async (build: (s: RunSnapshot) => readonly PendingEvent[]) => {
      await Promise.resolve();
      if (isTerminalRunStatus(snapshot.status)) return [];
      return build(snapshot).map((event) => write(event.type, event.data));
    },
    snapshot: () => snapshot,
    waitFor: (predicate, signal) =>
      new Promise<RunSnapshot>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const check = (): void => {
          if (!predicate(snapshot)) return;
          cleanup();
          resolve(snapshot);
        };
        const onAbort = (): void => {
          cleanup();
          reject(signal?.reason);
        };
        const cleanup = (): void => {
          waiters.delete(check);
          signal?.removeEventListener('abort', onAbort);
        };
        waiters.add(check);
        signal?.addEventListener('abort', onAbort, { once: true });
        check();
      }),
    readLog: async () => log.slice(),
  };

  return {
    handle,
    events: () => log.slice(),
    types: () => log.map((event) => event.type),
    cancel: async (reason) => {
      await handle.transact((s) =>
        s.status === 'cancelling'
          ? []
          : [
              {
                type: 'RUN_STATUS_CHANGED',
                data: { status: 'cancelling', ...(reason === undefined ? {} : { reason }) },
              },
            ],
      );
      controller.abort(reason);
    },
    decide: async (interruptId, decision) => {
      await handle.append('INTERRUPT_RESOLVED', { interruptId, status: 'resolved', decision, resolvedBy: 'user' });
    },
    addInput: async (text) => {
      inputCount += 1;
      const inputId = `inp_${inputCount}`;
      const messageId = `msg_input_${inputCount}`;
      await handle.transact(() => [
        { type: 'TEXT_MESSAGE_START', data: { messageId, role: 'user', inputId } },
        { type: 'TEXT_MESSAGE_CONTENT', data: { messageId, delta: text } },
        { type: 'TEXT_MESSAGE_END', data: { messageId } },
      ]);
      return inputId;
    },
    until: (predicate) => handle.waitFor(predicate),
  };
}
