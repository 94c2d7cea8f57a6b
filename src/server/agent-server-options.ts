import type { SendContextHooks } from './operations/send-context-hooks.ts';
import type { Capabilities, Limits, ModelInfo, StreamSettings } from '../core/protocol.ts';
import type { EdgeLimits } from './http/edge-admission.ts';
import type { CorsOptions } from './http/cors.ts';
import type { AgentInfo } from './agent-info.ts';
import type { CanUseExecutor } from './executors/browser-tool-runtime.ts';
import type { Subject } from './runs/run-handle.ts';
import type { RunStore } from './runs/run-store.ts';
import type { SuggestSessionTitle } from './runs/session-titles.ts';
import type { ObservabilityOptions } from './observability/create-observability.ts';
import type { ReadinessReport } from './observability/check-readiness.ts';
import type { AgentStorage } from './storage/storage-port.ts';
import type { AttachmentStore } from './attachments/attachment-store.ts';
import type { AttachmentCaps } from './attachments/upload-admission.ts';
import type { Clock } from '../core/clock.ts';
import type { RunEngine } from './runs/run-handle.ts';

/**
 * The options both handlers share (the fetch handler and its Node adapter): the product's
 * callbacks (with `resolveContextRefs` and `checkBalance`, docs/server.md "Context") and the
 * server's settings. Each handler adds its own `authenticate`, which gets its own kind of request.
 */
export interface AgentServerOptions extends SendContextHooks, ObservabilityOptions {
  /** Whether the user may use the agent at all; `false` → `403 FORBIDDEN`. */
  canUseAgent?: (subject: Subject) => boolean | Promise<boolean>;
  /** Drives runs (the agent loop); the handler calls `engine.start(handle)` once per run. */
  engine: RunEngine;
  /** Where the protocol is mounted; it lives at `{basePath}/v1/*`. Default `/api/agent`. */
  basePath?: string;
  agent?: AgentInfo;
  models?: ModelInfo[];
  capabilities?: Capabilities;
  limits?: Partial<Limits>;
  stream?: Partial<StreamSettings>;
  /** Time and timers for timestamps, expiry, reapers and stream timers. Default: the system clock. */
  clock?: Clock;
  /**
   * Suggests a new session's title from its first message (e.g. a short model call), in the
   * background; it replaces the default (the message's first line) unless the user renamed it.
   */
  suggestTitle?: SuggestSessionTitle;
  /** Mints ids: `ids('run')` → `run_…`. Default: ULIDs. */
  ids?: (prefix: string) => string;
  /**
   * Where everything is kept (docs/server.md, "Storage"): sessions, runs and their logs,
   * idempotency records, leases, the identity secret. Default: in memory (nothing survives the
   * process); `openSqliteStorage` keeps it in a file. The handler never closes it.
   */
  storage?: AgentStorage;
  idempotency?: { lockTtlMs?: number };
  /**
   * Where uploaded files are kept (docs/server.md, "Attachments"): `createMemoryAttachmentStore()`
   * or `openDirectoryAttachmentStore({directory})`. Default none: attachments are off
   * (`capabilities.attachments.supported: false`, `POST /attachments` is `404`).
   */
  attachments?: AttachmentStore;
  /**
   * What uploads may take of this process and of the store (docs/server.md, "Attachments"):
   * uploads at once in all, per network client and per identity, bytes per network client per
   * hour, the store's bytes and the free bytes its disk keeps. Defaults: {@link DEFAULT_ATTACHMENT_CAPS}.
   */
  attachmentCaps?: Partial<AttachmentCaps>;
  /**
   * Store-wide caps (per-identity ones are in `limits`): sessions and runs kept at most. Past them
   * the least recently active sessions with no run started or ended for `protectActiveSessionsMs`
   * (default 24 h) are evicted; while none is, a new session is `503 AGENT_UNAVAILABLE`
   * (docs/server.md, "Retention").
   */
  retention?: { maxSessions?: number; maxRuns?: number; protectActiveSessionsMs?: number };
  /** The identity binding of a subject (≤ 64 chars). Default: a keyed hash of the subject id (see `identitySecret`). */
  identityFor?: (subject: Subject) => string;
  /**
   * The secret of the default identity binding. Default: generated once and kept in `storage`, so
   * the same user keeps the same `identityId` across restarts of a durable store.
   */
  identitySecret?: string;
  /** How long a run's lease lasts unless its process renews it; a dead process's runs end after it. Default 10 000. */
  leaseTtlMs?: number;
  /** How long a cancelled run may take to finish before it is force-closed. Default 30 000 ms. */
  cancelGraceMs?: number;
  /** Base of each problem's `type` URI; the kebab-case code is appended. */
  problemTypeBase?: string;
  /**
   * Told about every vote a user keeps on an answer (`POST /runs/{id}/feedback`, a changed vote
   * again); a failure goes to `onError` and the vote stays kept.
   */
  onFeedback?: OnFeedback;
  /** Also told about unexpected errors (never the browser), beside the `request_failed` log line (docs/operations.md). */
  onError?: (error: unknown, context: Record<string, unknown>) => void;
  /** A request body must arrive within this many ms of the first read, else `408`. Default 30 000. */
  requestBodyTimeoutMs?: number;
  /** An event stream whose client has taken no bytes for this long is cut (it resumes). Default 30 000. */
  streamStallTimeoutMs?: number;
  /**
   * Lets pages on other origins call the API (docs/server.md, "Another origin"): an allow-list of
   * origins, never `*`. Default: none, so only same-origin pages can read the answers.
   */
  cors?: CorsOptions;
  /** Open event streams per identity; past it the identity's oldest one is closed. Default 10. */
  maxStreamsPerIdentity?: number;
  /** Requests served at once, open event streams included; past it `503` + `Retry-After`. Default 5 000. */
  maxConnections?: number;
  /**
   * The handler's other limits per network client and in all (docs/server.md, "Overload"):
   * connections, bodies and streams per client, bodies per identity, streams and live runs in all (past these a new
   * run is shed with `503`) and per client. Defaults: {@link DEFAULT_EDGE_LIMITS}.
   */
  edgeLimits?: Partial<Omit<EdgeLimits, 'maxConnections' | 'retryAfterMs'>>;
  /**
   * The addresses or CIDR subnets of your own load balancers or proxies, whose `Forwarded` /
   * `X-Forwarded-For` then names the network client (docs/server.md, "Overload"). Default none:
   * the client is the connection's remote address and forwarded headers are ignored.
   */
  trustProxy?: readonly string[];
  /**
   * Whether `subject` may run browser tools as the executor `executorId` (docs/protocol.md §19).
   * Without it browser tools are off: declarations are ignored and every executor request is
   * `403 FORBIDDEN` (fail closed).
   */
  canUseExecutor?: CanUseExecutor;
  /**
   * The key of claim grants (≥ 32 bytes). Default: generated once and kept in `storage`, so a
   * grant stays valid across restarts of a durable store.
   */
  grantSecret?: Uint8Array | string;
}

/** The product's hook on a kept vote (docs/server.md, "Feedback"). */
export type OnFeedback = (
  subject: Subject,
  feedback: { sessionId: string; runId: string; messageId: string; rating: 'up' | 'down'; comment: string | null },
) => void | Promise<void>;

/** What a handler is serving right now. */
export interface AgentHandlerStats {
  /** Requests in progress, open event streams included. */
  requests: number;
  /** Open event streams. */
  streams: number;
  /** Request bodies being read. */
  bodies: number;
  /** Runs created by this handler that have not ended and hold a live slot (not parked). */
  liveRuns: number;
  /** Runs created by this handler waiting (approval, browser tool, input) on a parked slot. */
  parkedRuns: number;
}

/** What both handlers expose besides serving requests. */
export interface AgentHandlerMembers {
  /** Ends every open event stream and stops timers; runs are left to their engines. */
  close(): Promise<void>;
  /** The sessions and runs this handler serves (for tests and operators). */
  store: RunStore;
  /** The storage this handler keeps everything in. */
  storage: AgentStorage;
  /** What the handler is serving right now (for tests and operators). */
  stats(): AgentHandlerStats;
  /** What `/readyz` would answer: whether the storage answers and the handler is open (for a host's own probe route). */
  readiness(): Promise<ReadinessReport>;
}

/** Resolves the product's user from its own cookie/session; `null` → `401 UNAUTHENTICATED`. */
export type Authenticate<Incoming> = (request: Incoming) => Subject | null | Promise<Subject | null>;
