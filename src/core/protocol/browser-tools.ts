/**
 * Browser tools: tools a run declares that the user's own page runs, with executors, claims,
 * grants and receipts (docs/protocol.md §19). Part of the wire contract; import it through
 * `src/core/protocol.ts`.
 */

/** Who runs a tool call: absent on the wire means the server itself. */
export type ExecutorKind = 'browser';

import type { ReceiptKind } from './generated/wire-contract.ts';

// The request bodies and the plain response bodies come from the contract's schema (src/core/protocol/schema/).
export type {
  BrowserToolDeclaration,
  ClaimToolCallRequest,
  ClaimToolCallResponse,
  ConnectExecutorRequest,
  DisconnectExecutorResponse,
  ExecutorLeaseResponse,
  ExecutorReportRequest,
  ReceiptKind,
  ToolReceiptRequest,
  ToolReceiptResponse,
} from './generated/wire-contract.ts';

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
