import type { Capabilities, ModelInfo, StreamSettings } from '../../core/protocol.ts';
import type { Clock } from '../../core/clock.ts';
import type { AgentInfo } from '../agent-info.ts';
import type { OnFeedback } from '../agent-server-options.ts';
import type { AttachmentFiles } from '../attachments/attachment-files.ts';
import type { BrowserToolRuntime } from '../executors/browser-tool-runtime.ts';
import type { RunSlot } from '../http/edge-admission.ts';
import type { RequestBody } from '../http/request-body.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { HandlerLimits, RequestRates } from '../limits/rate-limits.ts';
import type { RunStore } from '../runs/run-store.ts';
import type { StreamRegistry } from '../sse/stream-registry.ts';
import type { AgentStorage } from '../storage/storage-port.ts';
import type { Subject } from '../subject.ts';
import type { SendContextHooks } from './send-context-hooks.ts';

/** Everything a handler's operations share (the routes and the AG-UI endpoint): one per handler. */
export interface HandlerContext {
  store: RunStore;
  storage: AgentStorage;
  idempotency: IdempotencyStore;
  agent: AgentInfo;
  models: ModelInfo[];
  capabilities: Capabilities;
  limits: HandlerLimits;
  /** Uploaded files (docs/protocol.md §5.8); null when the server keeps none. */
  attachments: AttachmentFiles | null;
  /** Executors, claims and grants of browser tools; null when the product did not turn them on. */
  browserTools: BrowserToolRuntime | null;
  /** The per-identity request rates of `limits` (docs/protocol.md §16.1). */
  rateLimiter: RequestRates;
  stream: StreamSettings;
  clock: Clock;
  ids: (prefix: string) => string;
  /** `{basePath}/v1`, for `Location` and `eventsUrl`. */
  apiBase: string;
  /** Open SSE streams by identity (capped per identity), closed by `handler.close()`. */
  streams: StreamRegistry;
  /** A stream whose client has taken no bytes for this long is cut. */
  streamStallTimeoutMs: number;
  /** The product's checks of a send (`checkBalance`, `resolveContextRefs`). */
  sendHooks: SendContextHooks;
  /** The product's `onFeedback`, told about every kept vote. */
  onFeedback?: OnFeedback;
  /** Where failures that no response can carry go (a stream's read that failed): the handler's `onError`. */
  onError: (error: unknown, context: Record<string, unknown>) => void;
}

/** One authenticated request after the cross-cutting checks. */
export interface RequestContext {
  /** The Web request as the fetch core received it (headers, `signal`). */
  raw: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  subject: Subject;
  identityId: string;
  /** The network client it comes from: its address, or `unnamed:<requestId>` when unknown (docs/server.md, "Overload"). */
  client: string;
  /** The parsed JSON body of a POST, PATCH or DELETE (`{}` when it had none; `{}` on a `stream` route). */
  body: unknown;
  /** On a `stream` route: the body, for the route to read itself once its checks passed. */
  bodyStream?: RequestBody;
  /** On a route that `createsRun`: the edge's run slot, held by the run the route creates. */
  runSlot?: RunSlot;
}
