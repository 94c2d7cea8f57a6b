import type { CSSResult, ReactiveControllerHost } from 'lit';
import type { ClientState } from '../../core/index.ts';
import type { ApprovalCard } from '../approval-card/approval-card.ts';
import { findApprovalCard, loadApprovalCard } from '../../approval-card-on-demand.ts';

/** The approval card for one render: loaded, still loading, or failed to load (the row offers Retry). */
export type ApprovalCardStatus = ApprovalCard | 'loading' | 'failed';

/**
 * Loads the approval card (a file of its own: approval-card-on-demand.ts) when the transcript first
 * shows one, an open approval or one that belongs to no tool call, and renders the host again once
 * it has arrived or failed. A failed load stays failed until {@link retry}.
 */
export class ApprovalCardController {
  #host: ReactiveControllerHost;
  #adoptStyles: (styles: CSSResult) => void;
  #hasStyles = false;
  #isLoading = false;
  #hasFailed = false;

  /** `adoptStyles` adds the card's styles to the host's own (once, at the first render that shows the card). */
  constructor(host: ReactiveControllerHost, adoptStyles: (styles: CSSResult) => void) {
    this.#host = host;
    this.#adoptStyles = adoptStyles;
  }

  /** The card's status for a render of `state`; starts loading it when `state` shows a card. */
  statusFor(state: Pick<ClientState, 'interrupts'>): ApprovalCardStatus {
    const card = findApprovalCard();
    if (card) {
      if (!this.#hasStyles) this.#adoptStyles(card.styles);
      this.#hasStyles = true;
      return card;
    }
    if (this.#hasFailed) return 'failed';
    if (!this.#isLoading && state.interrupts.some((item) => item.state === 'open' || !item.toolCallId)) {
      this.#isLoading = true;
      loadApprovalCard().then(
        () => this.#settle(false),
        () => this.#settle(true),
      );
    }
    return 'loading';
  }

  /** Tries the load again (the failed row's Retry). */
  readonly retry = (): void => {
    this.#hasFailed = false;
    this.#host.requestUpdate();
  };

  #settle(hasFailed: boolean): void {
    this.#isLoading = false;
    this.#hasFailed = hasFailed;
    this.#host.requestUpdate();
  }
}
