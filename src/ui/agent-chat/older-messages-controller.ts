import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AgentClient } from '../../core/index.ts';
import type { ScrollPinTargets } from './scroll-pin-controller.ts';

/**
 * Loads older messages (`loadOlderMessages()`) when the person scrolls to within a screen of the
 * transcript's top, or when a restored page does not fill the screen, and keeps the rows they
 * were reading where they were when older rows land above them: before an update that changes the
 * first message it notes where the first row is, and after it scrolls by as far as that row moved.
 * Add it after the `ScrollPinController`, so a pinned transcript is at its bottom before it looks.
 */
export class OlderMessagesController implements ReactiveController {
  #targets: ScrollPinTargets & { client(): AgentClient | undefined };
  #firstMessageId: string | undefined;
  /** From an update that changes the first message until it is done: the first row before it, if any. */
  #anchor: { row: Element | null | undefined; top: number } | null = null;

  constructor(host: ReactiveControllerHost, targets: ScrollPinTargets & { client(): AgentClient | undefined }) {
    this.#targets = targets;
    host.addController(this);
  }

  hostUpdate(): void {
    const firstMessageId = this.#targets.client()?.getState().messages[0]?.messageId;
    if (firstMessageId === this.#firstMessageId) return;
    this.#firstMessageId = firstMessageId;
    const row = this.#targets.content()?.firstElementChild;
    this.#anchor = { row, top: row?.getBoundingClientRect().top ?? 0 };
  }

  hostUpdated(): void {
    const anchor = this.#anchor;
    if (anchor === null) return;
    this.#anchor = null;
    const transcript = this.#targets.transcript();
    // A row of another conversation is gone; one still here had the older rows put above it.
    if (transcript && anchor.row?.isConnected)
      transcript.scrollTop += anchor.row.getBoundingClientRect().top - anchor.top;
    this.onScroll();
  }

  /** The transcript's `scroll` listener: within a screen of the top (never while hidden: zero height), the older page loads. */
  onScroll = (): void => {
    const transcript = this.#targets.transcript();
    const client = this.#targets.client();
    const state = client?.getState();
    if (
      transcript &&
      state?.hasOlderMessages &&
      !state.isLoadingOlderMessages &&
      transcript.scrollTop < transcript.clientHeight
    ) {
      void client?.loadOlderMessages().catch(() => undefined);
    }
  };
}
