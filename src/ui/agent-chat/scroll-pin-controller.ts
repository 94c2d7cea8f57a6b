import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Within this many px of the bottom the transcript counts as following the stream. */
export const FOLLOW_THRESHOLD_PX = 24;

/** Where the controller finds the scrolling transcript and the content that grows inside it. */
export interface ScrollPinTargets {
  transcript(): HTMLElement | null;
  content(): Element | null;
}

/**
 * Keeps a transcript pinned to its latest row while the person follows the stream: after each
 * host update and each size change of the content (Markdown grows outside Lit's render cycle,
 * one commit per frame) a pinned transcript scrolls to the bottom. Only the person unpins it: a
 * scroll away from the bottom after their own input on the transcript (`onPersonInput`: wheel,
 * touch, keys, pointer) shows "Jump to latest" (`isJumpShown`), even when the content resizes
 * before the scroll event arrives. A scroll that layout alone made (rows taking their real size,
 * a card arriving from its file, a restored conversation settling) never does. Scrolling back near
 * the bottom, `pin()` or `jumpToLatest()` pins it again.
 */
export class ScrollPinController implements ReactiveController {
  #host: ReactiveControllerHost;
  #targets: ScrollPinTargets;
  #isPinned = true;
  #isJumpShown = false;
  #resizeObserver: ResizeObserver | null = null;
  /** Where the last follow left the transcript's scroll. */
  #latestScrollTop = 0;
  /** True once the person acted on the transcript since it was last pinned by `pin()` or `jumpToLatest()`. */
  #hasPersonInput = false;

  constructor(host: ReactiveControllerHost, targets: ScrollPinTargets) {
    this.#host = host;
    this.#targets = targets;
    host.addController(this);
  }

  /** True while the person scrolled away from the latest row. */
  get isJumpShown(): boolean {
    return this.#isJumpShown;
  }

  /** True while the transcript follows the stream to its latest row. */
  get isFollowing(): boolean {
    return this.#isPinned;
  }

  hostConnected(): void {
    this.#observeContent();
  }

  hostUpdated(): void {
    // The content exists only after the first render.
    this.#observeContent();
    this.#follow();
  }

  hostDisconnected(): void {
    this.#resizeObserver?.disconnect();
    this.#resizeObserver = null;
  }

  /** Follows the stream again from the next update (the person sent a message). */
  pin(): void {
    this.#hasPersonInput = false;
    this.#setPinned(true);
  }

  /** Pins and scrolls to the latest row now ("Jump to latest"). */
  jumpToLatest(): void {
    this.pin();
    this.#scrollToLatest();
  }

  /** The transcript's wheel, touch, key and pointer listener: the scrolls that follow may be the person's. */
  onPersonInput = (): void => {
    this.#hasPersonInput = true;
  };

  /**
   * The transcript's `scroll` listener: pinned while within {@link FOLLOW_THRESHOLD_PX} of the
   * bottom. A pinned transcript stays pinned unless the person acted on it and it moved up from
   * where the last follow left it: a follow's own scroll event can arrive after the content grew
   * again (a row expanding, a card arriving from its file), and that growth is no scroll of theirs.
   */
  onScroll = (): void => {
    const transcript = this.#targets.transcript();
    if (!transcript || (this.#isPinned && !this.#hasPersonInput)) return;
    const { scrollTop } = transcript;
    this.#setPinned(
      transcript.scrollHeight - scrollTop - transcript.clientHeight <= FOLLOW_THRESHOLD_PX ||
        (this.#isPinned && scrollTop >= this.#latestScrollTop),
    );
  };

  #setPinned(isPinned: boolean): void {
    this.#isPinned = isPinned;
    if (this.#isJumpShown === !isPinned) return;
    this.#isJumpShown = !isPinned;
    this.#host.requestUpdate();
  }

  #observeContent(): void {
    const content = this.#targets.content();
    if (!content || this.#resizeObserver) return;
    this.#resizeObserver = new ResizeObserver(() => this.#follow());
    this.#resizeObserver.observe(content);
  }

  /** Scrolls a pinned transcript to its latest row, unless the person scrolled up since the last follow. */
  #follow(): void {
    const transcript = this.#targets.transcript();
    // Their scroll event may not have arrived yet (rows coming into view resize first).
    if (transcript && transcript.scrollTop < this.#latestScrollTop) this.onScroll();
    if (this.#isPinned) this.#scrollToLatest();
  }

  #scrollToLatest(): void {
    const transcript = this.#targets.transcript();
    if (!transcript) return;
    transcript.scrollTop = transcript.scrollHeight;
    this.#latestScrollTop = transcript.scrollTop;
  }
}
