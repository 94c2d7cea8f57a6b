import type { EventEnvelope } from '../protocol.ts';
import type { TransportClock } from '../transport/clock.ts';
import type { HttpTransport } from '../transport/http-transport.ts';
import type { ClientPersistence } from './client-persistence.ts';
import type { ClientModel, ClientStore } from './client-store.ts';

/** What the client's parts (follower, sender) share: one store, one transport, one failure path. */
export interface ClientContext {
  store: ClientStore;
  transport: Pick<HttpTransport, 'request' | 'openStream'>;
  persistence: ClientPersistence;
  clock: TransportClock;
  random: () => number;
  backoff?: { baseMs?: number; capMs?: number };
  /** The signal of the current identity epoch: aborted by `resetIdentity()` and `dispose()`. */
  signal(): AbortSignal;
  /** Records a failure in state (or resets on `IDENTITY_CHANGED`) and returns the error to rethrow. */
  fail(error: unknown, source: 'request' | 'stream', retryable?: boolean, change?: Partial<ClientModel>): unknown;
  onEvent?: (event: EventEnvelope) => void;
}
