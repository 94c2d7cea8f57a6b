import type { BootstrapResponse } from '../protocol.ts';
import type { HttpTransport } from '../transport/http-transport.ts';
import type { AgentClientOptions } from './agent-client-types.ts';
import type { ClientPersistence } from './client-persistence.ts';
import type { ClientModel, ClientStore } from './client-store.ts';

/** The client's options with the defaults its parts read filled in. */
export type ClientSettings = AgentClientOptions & Required<Pick<AgentClientOptions, 'ids' | 'clock' | 'random' | 'createAttempts'>>;

/** What the client's parts (follower, sender) share: the settings, one store, one transport, one failure path. */
export interface ClientContext {
  settings: ClientSettings;
  store: ClientStore;
  transport: Pick<HttpTransport, 'request' | 'openStream'>;
  persistence: ClientPersistence;
  /** The signal of the current identity epoch: aborted by `resetIdentity()` and `dispose()`. */
  signal(): AbortSignal;
  /** Records a failure in state (or resets on `IDENTITY_CHANGED`) and returns the error to rethrow. */
  fail(error: unknown, source: 'request' | 'stream', retryable?: boolean, change?: Partial<ClientModel>): unknown;
  isDisposed(): boolean;
  /** The bootstrap answer, fetching it first if the client has none yet. */
  ensureBootstrap(): Promise<BootstrapResponse>;
}
