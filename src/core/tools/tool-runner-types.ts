import type { ToolRunnerStrings } from './tool-runner-strings.ts';
import type { Clock } from '../clock.ts';
import type { ToolReceiptStore } from './receipt-store.ts';

/** What a browser tool's handler gets besides its arguments. */
export interface BrowserToolContext {
  toolCallId: string;
  /** The digest of the arguments the server validated (and the user approved, for `ask` tools). */
  argumentsDigest: string;
  /** Aborted on Stop, when the runner is revoked, or when the server says the run is stopping. */
  signal: AbortSignal;
  /** Reports progress; sent at most about once a second (the latest wins). `fraction` is 0..1. */
  progress(message?: string, fraction?: number): void;
}

/** A tool the page runs for the agent. */
export interface BrowserTool {
  description: string;
  /** A short human title for the tool card. */
  title?: string;
  /** JSON Schema of the arguments; the server validates every call against it. */
  parameters: Record<string, unknown>;
  /** `allow` runs at once; `ask` (the default) needs the user's approval each time. The server may only tighten it. */
  policy?: 'allow' | 'ask';
  /**
   * Runs the call; returns a JSON-serialisable result. Throw `BusinessFailure` for a confirmed
   * failure and `BusinessCancelled` to confirm a stop; any other exception leaves the outcome
   * unknown: the call needs reconciliation and is never retried.
   */
  run(args: Record<string, unknown>, context: BrowserToolContext): unknown;
}

/** One browser tool call as the runner's callbacks see it. */
export interface BrowserToolCall {
  runId: string;
  toolCallId: string;
  name: string;
  args: unknown;
  argsDigest: string;
}

/** A confirmed outcome `reconcile` found out after the fact. */
export type ReconciledOutcome =
  { status: 'completed'; result?: unknown } | { status: 'failed' | 'cancelled'; message?: string };

/** What `onDiagnostic` hears about a call. */
export type ToolRunnerDiagnostic =
  | 'claimed'
  | 'replayed'
  | 'running'
  | 'delivered'
  | 'late'
  | 'elsewhere'
  | 'refused'
  | 'reconciling'
  | 'reconciled'
  | 'needs_reconciliation'
  | 'undeliverable';

/** Options of `attachToolRunner`; only `handlers` is required. */
export interface ToolRunnerOptions {
  /** The tools this page runs, by name (`[A-Za-z0-9_.-]{1,64}`). */
  handlers: Record<string, BrowserTool>;
  /** Where receipts and the executor id are kept; default in memory (nothing is written anywhere). */
  receipts?: ToolReceiptStore;
  /** This page's executor id (`[A-Za-z0-9_-]{1,64}`); default the one kept in `receipts`, made once. */
  executorId?: string;
  /** Asked before a call is claimed (`execute`) and before `reconcile`; false leaves the call alone. */
  authorize?(call: BrowserToolCall, phase: 'execute' | 'reconcile'): boolean | Promise<boolean>;
  /**
   * Asked after a reload (or an unexpected exception) left a call whose handler may have run:
   * return its confirmed outcome, or nothing to report it as needing reconciliation.
   */
  reconcile?(
    call: BrowserToolCall,
  ): ReconciledOutcome | null | undefined | Promise<ReconciledOutcome | null | undefined>;
  /** What the runner writes on the cards of its calls (`state.toolRunner.notes`); default English. */
  strings?: ToolRunnerStrings;
  /** Observes what happens to each call (logging, tests). */
  onDiagnostic?(call: BrowserToolCall, state: ToolRunnerDiagnostic): void;
  clock?: Clock;
  /** Id source of receipt and executor ids (default random UUIDs). */
  ids?: () => string;
}

/** A runner attached to one client for one identity. */
export interface ToolRunner {
  /** Resolves once the runner connected its executor (or found browser tools unsupported, or was revoked). */
  ready: Promise<void>;
  /** The executor id, once known. */
  executorId(): string | null;
  /**
   * Aborts every handler, stops new claims, disconnects the executor (while the identity is the
   * same) and detaches from the client. Called by itself when the client's identity changes.
   */
  revoke(): Promise<void>;
  isRevoked(): boolean;
}
