import type { ApprovalDecision, BootstrapResponse, ContextRef, ReasoningEffort } from '../protocol.ts';
import type { ClientState } from './client-state.ts';

/** Options of one `send`. */
export interface SendOptions {
  contextRefs?: ContextRef[];
  modelId?: string;
  reasoningEffort?: ReasoningEffort;
  limits?: { maxCostUsd?: string };
}

/** Called with the new state after every change; the state object is immutable. */
export type StateListener = (state: ClientState) => void;

/**
 * The DOM-free client of one conversation: the widget's only way to talk to the server. Every
 * action resolves once the server has definitively answered (the stream then carries the run);
 * actions reject with an `AgentError` (with `code`) on definitive failure or bad use.
 */
export interface AgentClient {
  /** Fetches `/bootstrap` (identity, limits, capabilities); rejects if the endpoint is not protocol v1. */
  bootstrap(): Promise<BootstrapResponse>;
  /** Sends user text as a new run (at most one run per call, whatever the retries). */
  send(text: string, options?: SendOptions): Promise<{ runId: string }>;
  /** Asks the server to cancel the active run (the explicit Stop button only). */
  cancel(): Promise<void>;
  /** Answers an open approval with the digest of exactly the arguments shown. */
  approve(interruptId: string, decision: ApprovalDecision): Promise<void>;
  /** Appends text to the active run. */
  addInput(text: string): Promise<void>;
  /** Loads a session: settled history plus the active run's snapshot and stream. */
  restore(sessionId: string): Promise<void>;
  /** Follows an existing run from its snapshot. */
  connect(runId: string): Promise<void>;
  /** Retries the failed action behind `state.error` (a failed send re-sends with a new key). */
  retry(): Promise<void>;
  subscribe(listener: StateListener): () => void;
  getState(): ClientState;
  /** Drops all state and identity (after `IDENTITY_CHANGED` or a logout). */
  resetIdentity(): void;
  /** Host signals, injected rather than read from globals. */
  setVisibility(visible: boolean): void;
  setOnline(online: boolean): void;
  /** Closes streams and timers; every later call rejects with `CLIENT_DISPOSED`. */
  dispose(): void;
}
