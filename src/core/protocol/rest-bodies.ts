/**
 * REST request and response bodies (docs/protocol.md §4, §5).
 * Part of the wire contract; import it through `src/core/protocol.ts`.
 */
import type { ApprovalDecision, ContextRef, InputContent, ReasoningEffort, RunStatus } from './basics.ts';
import type { RunSnapshot, SnapshotInterrupt, SnapshotMessage } from './snapshots.ts';

export interface ModelInfo {
  modelId: string;
  label: string;
  default?: boolean;
  available: boolean;
  reasoningOptions?: ReasoningEffort[];
}

export interface Capabilities {
  reasoning: { visible: boolean };
  approvals: { supported: boolean; approveWithEdits: boolean };
  inputs: { duringRun: boolean; contentTypes: string[] };
  cancel: boolean;
  sessions: { list: boolean; rename: boolean };
  stream: { poll: boolean; createAndStream: boolean };
}

export interface Limits {
  maxInputChars: number;
  maxInputsPerRun: number;
  maxEventBytes: number;
  maxRequestBytes: number;
  runMaxDurationSec: number;
  interruptDefaultTtlSec: number;
  eventRetentionSec: number;
  idempotencyKeyTtlSec: number;
  maxRounds: number;
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
  agent: { agentId: string; versionId: string; name: string; status: 'active' | 'disabled' | 'archived' };
  models: ModelInfo[];
  capabilities: Capabilities;
  limits: Limits;
  stream: StreamSettings;
}

/** `POST /runs` body. */
export interface CreateRunRequest {
  sessionId?: string;
  agentVersionId: string;
  input: { clientMessageId?: string; content: InputContent[]; contextRefs?: ContextRef[] };
  options?: {
    modelId?: string;
    reasoningEffort?: ReasoningEffort;
    limits?: { maxCostUsd?: string };
  };
}

/** `201` of `POST /runs` (and its replay). */
export interface CreateRunResponse {
  runId: string;
  sessionId: string;
  status: RunStatus;
  lastSeq: number;
  resumeCursor: string;
  eventsUrl: string;
  userMessageId: string;
  createdAt: string;
}

/** `GET /runs/{id}`: the snapshot with REST timestamps. */
export interface RunResource extends Omit<RunSnapshot, 'createdAt' | 'updatedAt'> {
  createdAt: string;
  updatedAt: string;
}

/** `POST /runs/{id}/interrupts/{iid}` body. */
export type ResolveInterruptRequest =
  { decision: ApprovalDecision; argsDigest: string; reason?: string; editedArgs?: unknown } | { response: unknown };

export interface ResolveInterruptResponse {
  interrupt: SnapshotInterrupt;
  eventSeq: number;
}

export interface CancelRunRequest {
  reason?: string;
}

export interface CancelRunResponse {
  status: RunStatus;
  eventSeq?: number;
}

/** `POST /runs/{id}/inputs` body. */
export interface AddInputRequest {
  clientMessageId?: string;
  content: InputContent[];
}

export interface AddInputResponse {
  inputId: string;
  messageId: string;
  eventSeq: number;
}

export interface ActiveRunRef {
  runId: string;
  status: RunStatus;
  lastSeq: number;
}

export interface SessionResource {
  sessionId: string;
  agentVersionId: string;
  title: string | null;
  activeRun: ActiveRunRef | null;
  lastRunId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionListResponse {
  items: SessionResource[];
  nextAfter: string | null;
}

/** `GET /sessions/{id}/messages`: settled messages, newest first. */
export interface SessionMessagesResponse {
  items: SnapshotMessage[];
  nextBefore: string | null;
  activeRun: ActiveRunRef | null;
}
