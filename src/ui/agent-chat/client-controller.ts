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
    for (const [target, name, listener] of this.#signals) target.addEventListener(name, listener);
    this.#unsubscribe = () => {
      unsubscribe();
      for (const [target, name, listener] of this.#signals) target.removeEventListener(name, listener);
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

  /** The page signals the client hears while bound: where each event fires and what it tells the client. */
  #signals: Array<[EventTarget, string, () => void]> = [
    [document, 'visibilitychange', () => this.#client?.setVisibility(document.visibilityState !== 'hidden')],
    [window, 'online', () => this.#client?.setOnline(true)],
    [window, 'offline', () => this.#client?.setOnline(false)],
  ];
}
