/**
 * REST request and response bodies (docs/protocol.md §4, §5).
 * Part of the wire contract; import it through `src/core/protocol.ts`.
 */
// The request bodies and the plain response bodies come from the contract's schema (src/core/protocol/schema/).
export type {
  ActiveRunRef,
  AddInputRequest,
  AddInputResponse,
  AnswerInterruptRequest,
  CancelRunRequest,
  CancelRunResponse,
  CreateRunRequest,
  CreateRunResponse,
  DecideInterruptRequest,
  FeedbackRequest,
  FeedbackResponse,
  RenameSessionRequest,
  ResolveInterruptRequest,
  SessionListResponse,
  SessionResource,
  ShowBranchRequest,
} from './generated/wire-contract.ts';
import type { AttachmentRef, ReasoningEffort } from './basics.ts';
import type { ActiveRunRef } from './generated/wire-contract.ts';
import type { SnapshotMessage } from './messages.ts';
import type { RunSnapshot, SnapshotInterrupt, SnapshotToolCall } from './snapshots.ts';

export interface ModelInfo {
  modelId: string;
  label: string;
  default?: boolean;
  available: boolean;
  reasoningOptions?: ReasoningEffort[];
  /** Whether the model reads images: attached images reach it as image parts (docs/protocol.md §5.8). */
  imageInput?: boolean;
}

export interface Capabilities {
  reasoning: { visible: boolean };
  approvals: { supported: boolean; approveWithEdits: boolean };
  inputs: { duringRun: boolean; contentTypes: string[] };
  cancel: boolean;
  /** `rename`: `PATCH /sessions/{id}`; `delete`: `DELETE /sessions/{id}` (absent means false). */
  sessions: { list: boolean; rename: boolean; delete?: boolean };
  stream: { poll: boolean; createAndStream: boolean };
  /** Browser tools (docs/protocol.md §19); absent or `supported: false` when the server takes none. */
  browserTools?: { supported: boolean };
  /** File attachments (docs/protocol.md §5.8); absent or `supported: false` when the server keeps none. */
  attachments?: { supported: boolean };
  /** Declarative widgets (docs/widgets.md): the only origins a widget's image may come from (https). */
  widgets?: { imageOrigins: string[] };
}

/**
 * The limits of file attachments (docs/protocol.md §5.8), in bootstrap's `limits` when the server
 * takes them.
 */
export interface AttachmentLimits {
  /** Bytes of one file (`413 PAYLOAD_TOO_LARGE` past it). */
  maxAttachmentBytes: number;
  /** Files one message may carry (`422 VALIDATION_FAILED` past it). */
  maxAttachmentsPerMessage: number;
  /** Bytes of all the files one identity keeps (`413 ATTACHMENT_QUOTA_EXCEEDED` past it). */
  maxAttachmentBytesPerIdentity: number;
  /** The media types accepted, each checked against the file's bytes (`415 ATTACHMENT_TYPE_UNSUPPORTED`). */
  attachmentTypes: string[];
  /** `POST /attachments` per minute. */
  attachmentsPerMinute: number;
  /** Bytes one identity may upload per hour (`429 RATE_LIMITED` past it, with `Retry-After`). */
  attachmentBytesPerHour: number;
}

/**
 * The limits of browser tools (docs/protocol.md §19.6), in bootstrap's `limits` when the server
 * supports them.
 */
export interface BrowserToolLimits {
  /** Entries of `browserTools` in one create. */
  maxBrowserTools: number;
  /** Characters of a browser tool's `description`. */
  maxBrowserToolDescriptionChars: number;
  /** Bytes of a browser tool's `parameters` schema as JSON. */
  maxBrowserToolSchemaBytes: number;
  /** Characters of a serialised browser tool result; longer ones are cut and marked `truncated`. */
  maxToolResultChars: number;
  /** A dispatched browser call not finished by then ends `expired` (never started) or `unknown`. */
  browserToolTimeoutSec: number;
  /** How often an executor heartbeats. */
  executorHeartbeatSec: number;
  /** An executor silent for this long is gone: its unstarted claims are released. */
  executorLeaseSec: number;
  /** `POST …/tool-calls/{id}/claim` per minute. */
  toolClaimsPerMinute: number;
  /** `POST …/tool-calls/{id}/receipts` per minute. */
  toolReceiptsPerMinute: number;
  /** Executor `connect`, `heartbeat`, `disconnect` and `report` per minute. */
  executorRequestsPerMinute: number;
}

export interface Limits extends Partial<BrowserToolLimits>, Partial<AttachmentLimits> {
  maxInputChars: number;
  maxInputsPerRun: number;
  maxEventBytes: number;
  maxRequestBytes: number;
  runMaxDurationSec: number;
  interruptDefaultTtlSec: number;
  eventRetentionSec: number;
  idempotencyKeyTtlSec: number;
  maxRounds: number;
  // Per identity (docs/protocol.md §16.1): token buckets that refill over a minute, so a burst of
  // the whole number is allowed and then one more every 60/N seconds; over → 429 RATE_LIMITED.
  /** `POST /runs` per minute. */
  runsPerMinute: number;
  /** Runs not yet ended at once (`POST /runs` past it → 429 RATE_LIMITED). */
  maxActiveRuns: number;
  /** `POST /runs/{id}/inputs` per minute. */
  inputsPerMinute: number;
  /** `POST /runs/{id}/interrupts/{iid}` per minute. */
  interruptAnswersPerMinute: number;
  /** `POST /runs/{id}/cancel` per minute. */
  cancelsPerMinute: number;
  /** GET requests (bootstrap, snapshots, sessions, event streams) per minute. */
  readsPerMinute: number;
  /** `PATCH` and `DELETE /sessions/{id}` (renames and deletions) per minute. */
  sessionChangesPerMinute: number;
  /** `POST /runs/{id}/feedback` (votes on answers) per minute. */
  feedbackPerMinute: number;
  // Sizes of request fields (docs/protocol.md §16.2); over → 422 VALIDATION_FAILED naming the limit.
  /** Text parts per message. */
  maxContentParts: number;
  /** Entries of `input.contextRefs`. */
  maxContextRefs: number;
  /** Characters of a context ref's `ref`. */
  maxContextRefChars: number;
  /** Characters of a context ref's `title`. */
  maxContextTitleChars: number;
  /** Characters of a context ref's `url`. */
  maxContextUrlChars: number;
  /** Characters of an id the client sends (`sessionId`, `agentVersionId`, `modelId`, `clientMessageId`, `argsDigest`). */
  maxIdChars: number;
  /** Characters of a cancel's or a denial's `reason`. */
  maxReasonChars: number;
  /** Characters of a session's `title` (`PATCH /sessions/{id}`). */
  maxTitleChars: number;
  /** Characters of a vote's `comment` (`POST /runs/{id}/feedback`). */
  maxCommentChars: number;
  /** Characters of a send's host `instruction` (never cut: refused past it). */
  maxInstructionChars: number;
  /** Characters of a send's `focus.text`; the server may cut it further to its token budget, saying so. */
  maxFocusChars: number;
  // Retention of the in-memory store (docs/protocol.md §16.3).
  /** A session with no run for this long is forgotten (then `404`). */
  sessionIdleTtlSec: number;
  /** Sessions kept per identity; a new one past it evicts the identity's least recently used idle one. */
  maxSessionsPerIdentity: number;
  /** Runs kept per session; past it the session's oldest ended runs (and their messages) are dropped. */
  maxRunsPerSession: number;
}

export interface StreamSettings {
  heartbeatSec: number;
  clientIdleTimeoutSec: number;
  maxStreamDurationSec: number;
  retryMs: number;
}

/** `GET /bootstrap`. */
export interface BootstrapResponse {
  protocol: { version: string; supported: string[] };
  identity: { identityId: string; displayName?: string; expiresAt?: string };
  agent: {
    agentId: string;
    versionId: string;
    name: string;
    status: 'active' | 'disabled' | 'archived';
    /** The agent's picture for the widget's header: an http(s) URL or a path (the page's CSP must allow it in `img-src`). */
    avatarUrl?: string;
  };
  models: ModelInfo[];
  capabilities: Capabilities;
  limits: Limits;
  stream: StreamSettings;
}

/** `GET /runs/{id}`: the snapshot with REST timestamps. */
export interface RunResource extends Omit<RunSnapshot, 'createdAt' | 'updatedAt'> {
  createdAt: string;
  updatedAt: string;
}

export interface ResolveInterruptResponse {
  interrupt: SnapshotInterrupt;
  eventSeq: number;
}

/** `GET /sessions/{id}/messages`: settled messages, newest first. */
export interface SessionMessagesResponse {
  items: SnapshotMessage[];
  nextBefore: string | null;
  activeRun: ActiveRunRef | null;
  /**
   * Every tool call of each run the page's messages come from, as the run's final snapshot keeps
   * it (results, widgets as last updated), each with its run and `seq`: oldest run first, each
   * run's in sequence. A run split over two pages is on both (merge by `toolCallId`).
   */
  toolCalls: HistoryToolCall[];
  /** Every interrupt (approvals, proposals, questions) of those runs, as settled, in the same order. */
  interrupts: HistoryInterrupt[];
}

/** A tool call of an ended run, as a page of settled history carries it: with the run it belongs to. */
export type HistoryToolCall = SnapshotToolCall & { runId: string };

/** An interrupt of an ended run, as a page of settled history carries it: with the run it belongs to. */
export type HistoryInterrupt = SnapshotInterrupt & { runId: string };

/** `201` of `POST /attachments`: the stored file, to name in a send's `input.attachments`. */
export type UploadAttachmentResponse = AttachmentRef;
