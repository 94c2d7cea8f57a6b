import type { AttachmentCaps } from './attachments/upload-admission.ts';
import { DEFAULT_ATTACHMENT_TYPES } from './attachments/verify-media-type.ts';
import type {
  AttachmentLimits,
  BrowserToolLimits,
  Capabilities,
  Limits,
  ModelInfo,
  StreamSettings,
} from '../core/protocol.ts';

/** Published limits when the product sets none (docs/protocol.md §16). */
export const DEFAULT_LIMITS: Limits = {
  maxInputChars: 32_000,
  maxInputsPerRun: 20,
  maxEventBytes: 65_536,
  maxRequestBytes: 262_144,
  runMaxDurationSec: 1_800,
  interruptDefaultTtlSec: 900,
  eventRetentionSec: 86_400,
  idempotencyKeyTtlSec: 86_400,
  maxRounds: 8,
  runsPerMinute: 30,
  maxActiveRuns: 5,
  inputsPerMinute: 60,
  interruptAnswersPerMinute: 60,
  cancelsPerMinute: 60,
  readsPerMinute: 600,
  sessionChangesPerMinute: 60,
  feedbackPerMinute: 60,
  maxContentParts: 16,
  maxContextRefs: 20,
  maxContextRefChars: 256,
  maxContextTitleChars: 256,
  maxContextUrlChars: 2_048,
  maxIdChars: 128,
  maxReasonChars: 500,
  maxTitleChars: 120,
  maxCommentChars: 1_000,
  maxInstructionChars: 4_000,
  maxFocusChars: 32_000,
  sessionIdleTtlSec: 604_800,
  maxSessionsPerIdentity: 100,
  maxRunsPerSession: 500,
};

/** Limits of browser tools when the product sets none (docs/protocol.md §19.6). */
export const DEFAULT_BROWSER_TOOL_LIMITS: BrowserToolLimits = {
  maxBrowserTools: 16,
  maxBrowserToolDescriptionChars: 1_024,
  maxBrowserToolSchemaBytes: 8_192,
  maxToolResultChars: 16_000,
  browserToolTimeoutSec: 120,
  executorHeartbeatSec: 15,
  executorLeaseSec: 45,
  toolClaimsPerMinute: 60,
  toolReceiptsPerMinute: 240,
  executorRequestsPerMinute: 120,
};

/** Limits of file attachments when the product sets none (docs/protocol.md §5.8). */
export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  maxAttachmentBytes: 10 * 1024 * 1024,
  maxAttachmentsPerMessage: 5,
  maxAttachmentBytesPerIdentity: 200 * 1024 * 1024,
  attachmentTypes: [...DEFAULT_ATTACHMENT_TYPES],
  attachmentsPerMinute: 30,
  attachmentBytesPerHour: 100 * 1024 * 1024,
};

/** What uploads may take of a process and of the store when the product sets none (docs/server.md, "Attachments"). */
export const DEFAULT_ATTACHMENT_CAPS: AttachmentCaps = {
  maxUploads: 8,
  maxUploadsPerClient: 2,
  maxUploadsPerIdentity: 2,
  attachmentBytesPerHourPerClient: 200 * 1024 * 1024,
  maxAttachmentStoreBytes: 2 * 1024 * 1024 * 1024,
  minFreeDiskBytes: 256 * 1024 * 1024,
};

/** An upload no message named within this long is deleted (docs/server.md, "Attachments"). */
export const UNSENT_ATTACHMENT_TTL_MS = 24 * 60 * 60 * 1000;

/** The same while room is short (the store past 80 % of its cap, or its disk low). */
export const UNSENT_ATTACHMENT_TTL_WHEN_SHORT_MS = 10 * 60 * 1000;

/** Connected executors kept per subject and in all (docs/protocol.md §19.4). */
export const DEFAULT_EXECUTOR_CAPS = { maxPerSubject: 20, maxExecutors: 10_000 } as const;

/**
 * Store-wide caps when the product sets none (docs/server.md, "Retention"), and how long a session
 * stays safe from them after its last run started or ended.
 */
export const DEFAULT_RETENTION = {
  maxSessions: 10_000,
  maxRuns: 20_000,
  protectActiveSessionsMs: 24 * 60 * 60 * 1000,
} as const;

/**
 * How old a stored secret (identity, grants) may get in a process before it is read again, so
 * processes converge on one after the storage lost its data (docs/server.md, "Redis").
 */
export const STORED_SECRET_REFRESH_MS = 1_000;

/** Stream settings when the product sets none (docs/protocol.md §15). */
export const DEFAULT_STREAM_SETTINGS: StreamSettings = {
  heartbeatSec: 15,
  clientIdleTimeoutSec: 45,
  maxStreamDurationSec: 300,
  retryMs: 3_000,
};

/** Capabilities of this server; the JSON long-poll fallback comes later. */
export const DEFAULT_CAPABILITIES: Capabilities = {
  reasoning: { visible: true },
  approvals: { supported: true, approveWithEdits: false },
  inputs: { duringRun: true, contentTypes: ['text'] },
  cancel: true,
  sessions: { list: true, rename: true, delete: true },
  stream: { poll: false, createAndStream: false },
};

/**
 * The offline scripted model, listed when neither the product (`models`) nor the engine
 * (`engine.models`, e.g. `createRunEngine`'s own model) lists any.
 */
export const DEFAULT_MODELS: ModelInfo[] = [
  {
    modelId: 'scripted',
    label: 'Scripted (offline)',
    default: true,
    available: true,
    reasoningOptions: ['low', 'medium', 'high'],
  },
];

/** The agent a handler serves when the product names none. */
export const DEFAULT_AGENT = { agentId: 'agt_demo', versionId: 'agv_demo_1', name: 'Assistant' } as const;

/** The handler's edge limits when the product sets none (docs/server.md, docs/protocol.md §16). */
export const DEFAULT_EDGE_LIMITS = {
  requestBodyTimeoutMs: 30_000,
  streamStallTimeoutMs: 30_000,
  maxStreamsPerIdentity: 10,
  maxConnections: 5_000,
  /** Requests at once from one network client (its share of `maxConnections`). */
  maxConnectionsPerClient: 500,
  /** Request bodies being read at once from one network client. */
  maxBodiesPerClient: 64,
  /** Request bodies being read at once for one identity, from however many network clients. */
  maxBodiesPerIdentity: 16,
  /** Open event streams in all; below `maxConnections`, so short requests always find a slot. */
  maxStreams: 4_000,
  /** Open event streams from one network client. */
  maxStreamsPerClient: 250,
  /** Runs created here and not ended; past it new runs are shed with `503`. */
  maxLiveRuns: 200,
  /** Runs from one network client not ended (its share of `maxLiveRuns`). */
  maxLiveRunsPerClient: 25,
  /** Runs past `maxLiveRuns` kept for network clients holding none, so a newcomer is not shed. */
  newClientRunReserve: 20,
  /**
   * How long such a client's create waits before it takes a reserved run: a flood's client sends
   * several at once meanwhile and gets none. Longer than requests sent together take to arrive.
   */
  newClientWaitMs: 500,
  /** Creates waiting that way at once. */
  maxWaitingNewClients: 64,
  /** Runs waiting for an approval, a browser tool or an input, which hold no live-run slot meanwhile. */
  maxParkedRuns: 2_000,
  /** The same from one network client. */
  maxParkedRunsPerClient: 50,
  /**
   * Event loop utilisation (sustained for two 500 ms windows) past which new runs are shed: off
   * (above 1) unless set, since a loop shared with other work (an app, tests) says little; 0.95
   * suits a process that only serves the agent.
   */
  shedAtEventLoopUtilization: Number.POSITIVE_INFINITY,
  /** `Retry-After` of every refusal of these limits (`503` in all, `429` per client). */
  capacityRetryAfterMs: 5_000,
} as const;
