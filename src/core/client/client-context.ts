import type { BootstrapResponse } from '../protocol.ts';
import type { HttpTransport, TransportRequest, TransportResponse } from '../transport/http-transport.ts';
import type { AgentClientOptions } from './agent-client-types.ts';
import type { ClientPersistence } from './client-persistence.ts';
import type { ClientStore } from './client-store.ts';

/** The client's options with the defaults its parts read filled in. */
export type ClientSettings = AgentClientOptions &
  Required<Pick<AgentClientOptions, 'ids' | 'clock' | 'random' | 'createAttempts'>>;

/** How a failure is recorded: the action that shows it, and whether the user may retry (default the error's own). */
export interface FailureReport {
  type: 'requestFailed' | 'streamFailed' | 'bootstrapFailed';
  retryable?: boolean;
}

/** What the client's parts (follower, sender) share: the settings, one store, one transport, one failure path. */
export interface ClientContext {
  settings: ClientSettings;
  store: ClientStore;
  transport: Pick<HttpTransport, 'request' | 'openStream'>;
  persistence: ClientPersistence;
  /** Sends a request under the current identity epoch, so `resetIdentity()` and `dispose()` abort it. */
  request<T>(request: Omit<TransportRequest, 'signal'>): Promise<TransportResponse<T>>;
  /** GETs a resource (three attempts) under the current identity epoch. */
  get<T>(path: string): Promise<TransportResponse<T>>;
  /**
   * Dispatches the failure's action (or resets on `IDENTITY_CHANGED`; nothing after `dispose()` or
   * an identity reset's abort) and returns the error to rethrow.
   */
  fail(error: unknown, report: FailureReport): unknown;
  isDisposed(): boolean;
  /** The bootstrap answer, fetching it first if the client has none yet. */
  ensureBootstrap(): Promise<BootstrapResponse>;
}
