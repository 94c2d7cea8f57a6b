import type { AdmissionStorage } from './roles/admission-storage.ts';
import type { AgUiStorage } from './roles/ag-ui-storage.ts';
import type { ExecutorStorage } from './roles/executor-storage.ts';
import type { FeedbackStorage } from './roles/feedback-storage.ts';
import type { IdempotencyStorage } from './roles/idempotency-storage.ts';
import type { RetentionStorage } from './roles/retention-storage.ts';
import type { RunLeaseStorage } from './roles/run-lease-storage.ts';
import type { RunStorage } from './roles/run-storage.ts';
import type { SessionStorage } from './roles/session-storage.ts';
import type { SettingStorage } from './roles/setting-storage.ts';
import type { StorageLifecycle } from './roles/storage-lifecycle.ts';

export type { AdmissionStorage } from './roles/admission-storage.ts';
export type { AgUiStorage } from './roles/ag-ui-storage.ts';
export type { ExecutorLeaseStore, ExecutorStorage, StoredExecutorLease } from './roles/executor-storage.ts';
export type { FeedbackStorage, StoredFeedback } from './roles/feedback-storage.ts';
export { IdempotencyLockLostError } from './roles/idempotency-storage.ts';
export type {
  IdempotencyBeginOutcome,
  IdempotencyCompletion,
  IdempotencyStorage,
  StoredResponse,
} from './roles/idempotency-storage.ts';
export { roomUnderCaps } from './roles/retention-storage.ts';
export type { RetentionRequest, RetentionStorage, SessionRoom, SessionRoomRequest } from './roles/retention-storage.ts';
export type { RunLease, RunLeaseStorage } from './roles/run-lease-storage.ts';
export type {
  AppendOptions,
  CreateRunCommand,
  CreateRunOutcome,
  RunStart,
  RunStorage,
  StoredRun,
} from './roles/run-storage.ts';
export type {
  DeleteSessionOutcome,
  Page,
  SessionStorage,
  SettledToolCall,
  ShowBranchOutcome,
  StoredSession,
  StoredTurnLink,
  TitleUpdateOutcome,
} from './roles/session-storage.ts';
export type { SettingStorage } from './roles/setting-storage.ts';
export type { StorageLifecycle } from './roles/storage-lifecycle.ts';

/**
 * Everything the server keeps (docs/server.md, "Storage"): sessions and their settled history,
 * runs with their sequenced event logs and final snapshots, idempotency records, run leases and
 * server settings. Every method is async and safe to call from several processes at once: the
 * store itself fences appends by the expected last seq, inserts idempotency records only when
 * absent and commits a run with its first event and its idempotency record together. Only the
 * doorbell (`subscribe`) may be in-process (memory, SQLite); Redis rings it across processes.
 *
 * It is the sum of the roles it serves, one interface each in `roles/`, so a part of the server
 * can ask for the role it uses and a store can build each role in a file of its own.
 */
export interface AgentStorage
  extends
    RunStorage,
    SessionStorage,
    RunLeaseStorage,
    IdempotencyStorage,
    RetentionStorage,
    AdmissionStorage,
    ExecutorStorage,
    AgUiStorage,
    FeedbackStorage,
    SettingStorage,
    StorageLifecycle {}
