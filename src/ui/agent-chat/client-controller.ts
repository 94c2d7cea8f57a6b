import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AgentClient, ClientState } from '../../core/index.ts';

/**
 * Binds a Lit host to an `AgentClient`: subscribes while the host is connected and requests an
 * update on every change (the client's `getState()` returns the same object until the next
 * change, so the host reads it when it renders), and feeds the page's visibility and online
 * signals into the client (the core reads no browser globals). It holds no protocol logic.
 */
export class ClientController implements ReactiveController {
  #host: ReactiveControllerHost;
  #onState: (state: ClientState) => void;
  #client: AgentClient | undefined;
  #unbind: (() => void) | null = null;
  #isConnected = false;

  constructor(host: ReactiveControllerHost, onState: (state: ClientState) => void = () => undefined) {
    this.#host = host;
    this.#onState = onState;
    host.addController(this);
  }

  /** The current state of the bound client; null while no client is bound. */
  get state(): ClientState | null {
    return this.#client?.getState() ?? null;
  }

  /** Binds `client` (or nothing), leaving the previous one; called when the host's property changes. */
  setClient(client: AgentClient | undefined): void {
    if (client === this.#client) return;
    const isConnected = this.#isConnected;
    this.hostDisconnected();
    this.#client = client;
    if (isConnected) this.hostConnected();
  }

  hostConnected(): void {
    this.#isConnected = true;
    const client = this.#client;
    if (!client || this.#unbind) return;
    const unsubscribe = client.subscribe((state) => {
      this.#onState(state);
      this.#host.requestUpdate();
    });
    for (const [target, name, listener] of this.#signals) target.addEventListener(name, listener);
    this.#unbind = () => {
      unsubscribe();
      for (const [target, name, listener] of this.#signals) target.removeEventListener(name, listener);
    };
    client.setVisibility(document.visibilityState !== 'hidden');
    client.setOnline(navigator.onLine);
    this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.#isConnected = false;
    this.#unbind?.();
    this.#unbind = null;
  }

  /** The page signals the client hears while bound: where each event fires and what it tells the client. */
  #signals: Array<[EventTarget, string, () => void]> = [
    [document, 'visibilitychange', () => this.#client?.setVisibility(document.visibilityState !== 'hidden')],
    [window, 'online', () => this.#client?.setOnline(true)],
    [window, 'offline', () => this.#client?.setOnline(false)],
  ];
}
