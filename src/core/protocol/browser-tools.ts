/**
 * Browser tools: tools a run declares that the user's own page runs, with executors, claims,
 * grants and receipts (docs/protocol.md §19). Part of the wire contract; import it through
 * `src/core/protocol.ts`.
 */

/** Who runs a tool call: absent on the wire means the server itself. */
export type ExecutorKind = 'browser';

import type { ReceiptKind } from './generated/request-bodies.ts';

// The request bodies come from the contract's schema (src/core/protocol/schema/).
export type {
  BrowserToolDeclaration,
  ClaimToolCallRequest,
  ConnectExecutorRequest,
  ExecutorReportRequest,
  ReceiptKind,
  ToolReceiptRequest,
} from './generated/request-bodies.ts';

/** The receipts that end a call with an outcome the executor confirmed. */
export type FinalReceiptKind = Exclude<ReceiptKind, 'accepted' | 'progress'>;

/** What the run's log keeps about who runs a browser call (`SnapshotToolCall.executor`). */
export interface SnapshotToolExecutor {
  kind: ExecutorKind;
  /** ISO-8601: past it a call that never started ends `expired`, one that started ends `unknown`. */
  expiresAt?: string;
  /** The executor holding the claim, if any. */
  executorId?: string;
  /** `sha256:` digest of the grant handed to that executor (the grant itself is never logged). */
  grantDigest?: string;
  /** When the executor said it starts (`accepted`): from then on the call is never released. */
  acceptedAt?: number;
  /** The highest receipt `sequence` applied; a receipt at or below it is a repeat. */
  receiptSequence?: number;
  /** The executor's final receipt; the engine writes `TOOL_CALL_RESULT` from it. */
  outcome?: { kind: FinalReceiptKind; receiptId: string; content: string; truncated?: boolean };
  /** Set when the executor reported it cannot confirm what happened. */
  reconciliation?: 'required';
}

/** `200` of connect and heartbeat. */
export interface ExecutorLeaseResponse {
  executorId: string;
  /** ISO-8601: without a heartbeat by then, the executor's unstarted claims are released. */
  expiresAt: string;
  heartbeatSec: number;
}

/** `200` of disconnect: the claims it released (never one already accepted). */
export interface DisconnectExecutorResponse {
  released: Array<{ runId: string; toolCallId: string }>;
}

/** One call an executor may claim or must finish, from `GET /executors/{executorId}/pending`. */
export interface PendingToolCall {
  runId: string;
  sessionId: string;
  toolCallId: string;
  name: string;
  args: unknown;
  argsDigest: string;
  expiresAt: string;
  /** `null` when nobody holds it; `self` when this executor does (a reloaded page reconciles it). */
  claimedBy: 'self' | null;
  isAccepted: boolean;
}

/** `200` of `GET /executors/{executorId}/pending`. */
export interface PendingToolCallsResponse {
  items: PendingToolCall[];
  /** Opaque; pass as `after` for the next page, null when there is none. */
  nextAfter: string | null;
}

/** `200` of a claim: the grant to send as `X-Tool-Grant` with every receipt. */
export interface ClaimToolCallResponse {
  grant: string;
  /** True when this executor already held the claim (a retry, or a reloaded page). */
  replayed: boolean;
  /** True when the server has this executor's `accepted` receipt: the handler may have run. */
  isAccepted: boolean;
  /** The highest receipt sequence applied so far (-1 before `accepted`). */
  receiptSequence: number;
  expiresAt: string;
  eventSeq: number;
}

/** `200` of a receipt or a report. */
export interface ToolReceiptResponse {
  accepted: true;
  /** The call had already ended without this receipt (expired, cancelled, reported): it was not applied. */
  late?: true;
  /** The same receipt was applied before; nothing changed. */
  replayed?: true;
  /** The run is stopping: the executor should abort its handler. */
  cancelRequested?: true;
  eventSeq?: number;
}
