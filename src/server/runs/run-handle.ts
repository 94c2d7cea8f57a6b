import type { WidgetActionStart } from '../widgets/widget-action.ts';
import type {
  AttachmentRef,
  BrowserToolDeclaration,
  ContextRef,
  CreateRunRequest,
  EventDataMap,
  EventEnvelope,
  EventType,
  FocusContext,
  ModelInfo,
  RunSnapshot,
  SnapshotMessage,
  SnapshotToolCall,
} from '../../core/protocol.ts';
import type { RunObserver } from '../observability/run-observer.ts';
import type { Subject } from '../subject.ts';

export type { Subject } from '../subject.ts';

/** An event to append: the log adds the envelope (seq, cursor, ids, timestamp). */
export type PendingEvent = { [T in EventType]: { type: T; data: EventDataMap[T] } }[EventType];

/** A tool call of an ended run, as its final snapshot keeps it, with the run it belongs to. */
export type SettledToolCall = SnapshotToolCall & { runId: string };

/** What the product's `resolveContextRefs` made of one attached reference: text for the model. */
export interface ResolvedContextRef {
  ref: string;
  title?: string;
  text: string;
}

/** The user's message that started a run, with what the send added for the model. */
export interface RunInput {
  messageId: string;
  text: string;
  contextRefs?: ContextRef[];
  /** The host's per-send instruction (docs/agent-loop.md, "Prompt layers"); never in the history. */
  instruction?: string;
  /** What the user was looking at, as the page sent it (cut to its budget by the engine, which says so). */
  focus?: FocusContext;
  /** The attached references as the product resolved them, and the attached text files' text. */
  attachments?: ResolvedContextRef[];
  /** The files attached to the message (docs/protocol.md §5.8): what they are; images are read with `RunHandle.readAttachment`. */
  files?: AttachmentRef[];
  /** Set on an action run (docs/widgets.md, "Actions"): the widget action it records. */
  widgetAction?: WidgetActionStart;
}

/**
 * What the run store hands the engine for one run: the run's input and a way to write its log.
 * Every write goes through the run's serial queue, so `transact` sees the latest snapshot and no
 * other write (an approval, a cancel, an input) can interleave with it.
 */
export interface RunHandle {
  readonly runId: string;
  readonly sessionId: string;
  readonly subject: Subject;
  /** The user message that started the run (already in the log as `RUN_STARTED`). */
  readonly input: RunInput;
  readonly options: NonNullable<CreateRunRequest['options']>;
  /** The locale the user reads (the create's `Accept-Language`): text the engine writes for the user follows it. */
  readonly locale?: string;
  /** Settled user and assistant messages of earlier runs in the session, oldest first. */
  readonly history: readonly SnapshotMessage[];
  /** The tool calls (with results) of those runs, oldest run first; absent means none are known. */
  readonly historyToolCalls?: readonly SettledToolCall[];
  /** The browser tools the run declared (also in `RUN_STARTED`); absent or empty when none. */
  readonly browserTools?: readonly BrowserToolDeclaration[];
  /** Aborted when the user cancels (`POST /cancel`); its `reason` is the cancel reason string. */
  readonly signal: AbortSignal;
  /**
   * How long an approval or proposal the engine asks stays open before it expires as a deny: the
   * handler's published `interruptDefaultTtlSec` (docs/protocol.md §16). Absent: the engine's own.
   */
  readonly interruptTtlMs?: number;
  /**
   * Appends one event. Resolves with its envelope once it is in the log (written before it is
   * sent). Rejects with `RunClosedError` when the run already has its terminal event.
   */
  append<T extends EventType>(type: T, data: EventDataMap[T]): Promise<EventEnvelope<T>>;
  /**
   * Atomically decides and appends: `build` gets the latest snapshot and returns the events to
   * append (possibly none). Resolves with the appended envelopes. A terminal run appends nothing.
   */
  transact(build: (snapshot: RunSnapshot) => readonly PendingEvent[]): Promise<EventEnvelope[]>;
  /** The current snapshot (the reducer over the whole log so far). */
  snapshot(): RunSnapshot;
  /**
   * Resolves with the first snapshot (current or later) for which `predicate` holds. Rejects
   * with the signal's reason when `signal` aborts first.
   */
  waitFor(predicate: (snapshot: RunSnapshot) => boolean, signal?: AbortSignal): Promise<RunSnapshot>;
  /** The run's whole event log so far, read from storage (what a resume rebuilds from). */
  readLog(): Promise<EventEnvelope[]>;
  /**
   * The bytes of one of the run's attached files (its owner is the run's subject); null when it is
   * gone or the server keeps no files.
   */
  readAttachment?(attachmentId: string): Promise<Uint8Array | null>;
  /** Where the engine reports what the log does not show (model calls) for metrics and traces; set by the handler. */
  readonly observer?: RunObserver;
}

/** Drives runs. The run store calls `start` once per run after `RUN_STARTED` is committed. */
export interface RunEngine {
  /**
   * Runs the agent loop to exactly one terminal event. Resolves after the terminal event is in
   * the log; never rejects (failures end the run with `RUN_ERROR`).
   */
  start(handle: RunHandle): Promise<void>;
  /**
   * Continues a run whose producing process died while it waited for an approval (status
   * `awaiting_input`): rebuilds the loop from `handle.readLog()`, re-enters the wait and goes on,
   * to exactly one terminal event like `start`. Engines without it leave such runs to be ended
   * `RUN_ABANDONED`.
   */
  resume?(handle: RunHandle): Promise<void>;
  /** Releases what the engine holds open (its MCP server connections); runs must have ended. */
  close?(): Promise<void>;
  /**
   * The models the engine answers with, which bootstrap lists (and runs name in `RUN_STARTED`)
   * when the handler is given no `models`; `createRunEngine` lists its model. Without it the
   * handler lists the scripted model.
   */
  readonly models?: readonly ModelInfo[];
}

/** Thrown by `RunHandle.append` after the run's terminal event: the first terminal wins. */
export class RunClosedError extends Error {
  constructor(readonly runId: string) {
    super(`Run ${runId} has already ended; nothing may follow its terminal event.`);
    this.name = 'RunClosedError';
  }
}
