import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AgentClient, ClientState } from '../../core/index.ts';

/**
 * Binds a Lit host to an `AgentClient`: subscribes while the host is connected, keeps the latest
 * state and requests an update on every change, and feeds the page's visibility and online
 * signals into the client (the core reads no browser globals). It holds no protocol logic.
 */
export class ClientController implements ReactiveController {
  /** The latest state of the bound client; null while no client is bound. */
  state: ClientState | null = null;
  #host: ReactiveControllerHost;
  #client: AgentClient | undefined;
  #unsubscribe: (() => void) | null = null;
  #isConnected = false;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** Binds `client` (or nothing), leaving the previous one; called when the host's property changes. */
  setClient(client: AgentClient | undefined): void {
    if (client === this.#client) return;
    this.#unbind();
    this.#client = client;
    this.state = client ? client.getState() : null;
    if (this.#isConnected) this.#bind();
  }

  hostConnected(): void {
    this.#isConnected = true;
    this.#bind();
  }

  hostDisconnected(): void {
    this.#isConnected = false;
    this.#unbind();
  }

  #bind(): void {
    const client = this.#client;
    if (!client || this.#unsubscribe) return;
    const unsubscribe = client.subscribe((state) => {
      this.state = state;
      this.#host.requestUpdate();
    });
    document.addEventListener('visibilitychange', this.#onVisibility);
    window.addEventListener('online', this.#onOnline);
    window.addEventListener('offline', this.#onOffline);
    this.#unsubscribe = () => {
      unsubscribe();
      document.removeEventListener('visibilitychange', this.#onVisibility);
      window.removeEventListener('online', this.#onOnline);
      window.removeEventListener('offline', this.#onOffline);
    };
    this.state = client.getState();
    client.setVisibility(document.visibilityState !== 'hidden');
    client.setOnline(navigator.onLine);
    this.#host.requestUpdate();
  }

  #unbind(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #onVisibility = (): void => this.#client?.setVisibility(document.visibilityState !== 'hidden');
  #onOnline = (): void => this.#client?.setOnline(true);
  #onOffline = (): void => this.#client?.setOnline(false);
}
