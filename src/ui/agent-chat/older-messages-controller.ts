import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AgentClient } from '../../core/index.ts';
import type { ScrollPinTargets } from './scroll-pin-controller.ts';

/**
 * Loads older messages (`loadOlderMessages()`) when the person scrolls to within a screen of the
 * transcript's top, or when a restored page does not fill the screen, and keeps the rows they
 * were reading where they were when older rows land above them: before an update that changes the
 * first message it notes where the first row is, and after it scrolls by as far as that row moved.
 * The rows that landed are first laid out at their estimated size (`content-visibility: auto`) and
 * take their real one a frame or more later, so the row stays held through those resizes, where
 * the person last scrolled it, until the content has not resized for {@link SETTLE_MS} or the
 * transcript follows the stream again. Meanwhile the browser's own scroll anchoring is off
 * (`data-settling`): it may anchor on a row that is itself resizing.
 * Add it after the `ScrollPinController`, so a pinned transcript is at its bottom before it looks;
 * it may be added during an update (it ships with the turn actions, src/ui/turn-actions.ts).
 */
export class OlderMessagesController implements ReactiveController {
  #targets: OlderMessagesTargets;
  #firstMessageId: string | undefined;
  /**
   * From an update that changes the first message until it is done: the first row before it, if
   * any. The update the controller is added in ends with a look too (no row to keep), so a
   * restored page that does not fill the screen loads the older page.
   */
  #anchor: { row: Element | null | undefined; top: number } | null = { row: undefined, top: 0 };
  /** After older rows landed: the row kept where it was on screen while the rows settle their size, and the scroll that keeps it there. */
  #held: { row: Element; top: number; scrollTop: number } | null = null;
  /** Watches the content's size while a row is held. */
  #settling: ResizeObserver | null = null;
  /** Ends the hold once the content stopped resizing. */
  #settled: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost, targets: OlderMessagesTargets) {
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
    if (transcript && anchor.row?.isConnected) {
      transcript.scrollTop += anchor.row.getBoundingClientRect().top - anchor.top;
      if (!this.#targets.isFollowing()) this.#hold(transcript, { row: anchor.row, top: anchor.top });
    }
    this.onScroll();
  }

  hostDisconnected(): void {
    this.#release();
  }

  /** The transcript's `scroll` listener: within a screen of the top (never while hidden: zero height), the older page loads. */
  onScroll = (): void => {
    const transcript = this.#targets.transcript();
    if (transcript) this.#followPersonScroll(transcript);
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

  #hold(transcript: HTMLElement, held: { row: Element; top: number }): void {
    this.#held = { ...held, scrollTop: transcript.scrollTop };
    transcript.toggleAttribute('data-settling', true);
    this.#settling ??= new ResizeObserver(() => this.#keepHeld());
    const content = this.#targets.content();
    if (content) this.#settling.observe(content);
    this.#waitForSettled();
  }

  /** After the content resized: scrolls the held row back to its place (a resize callback runs before the paint). */
  #keepHeld(): void {
    const held = this.#held;
    const transcript = this.#targets.transcript();
    if (!held || !transcript || !held.row.isConnected || this.#targets.isFollowing()) {
      this.#release();
      return;
    }
    this.#followPersonScroll(transcript);
    transcript.scrollTop += held.row.getBoundingClientRect().top - held.top;
    held.scrollTop = transcript.scrollTop;
    this.#waitForSettled();
  }

  /** A scroll since the hold last set it is the person's: the row is held where it took it. */
  #followPersonScroll(transcript: HTMLElement): void {
    const held = this.#held;
    if (!held || transcript.scrollTop === held.scrollTop) return;
    held.top -= transcript.scrollTop - held.scrollTop;
    held.scrollTop = transcript.scrollTop;
  }

  #waitForSettled(): void {
    clearTimeout(this.#settled);
    this.#settled = setTimeout(() => this.#release(), SETTLE_MS);
  }

  #release(): void {
    clearTimeout(this.#settled);
    this.#targets.transcript()?.removeAttribute('data-settling');
    this.#held = null;
    this.#settling?.disconnect();
    this.#settling = null;
  }
}

/** How long the content must stay the same size after older rows landed before the hold ends. */
const SETTLE_MS = 300;

/** Where {@link OlderMessagesController} finds the transcript, its client, and whether it follows the stream. */
export interface OlderMessagesTargets extends ScrollPinTargets {
  client(): AgentClient | undefined;
  /** True while the transcript follows the stream to its latest row (the scroll pin's). */
  isFollowing(): boolean;
}
