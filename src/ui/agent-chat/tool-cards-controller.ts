import type { CSSResult, ReactiveControllerHost } from 'lit';
import type { ClientState } from '../../core/index.ts';
import { findToolCards, loadToolCards, type ToolCards } from '../../parts/tool-cards/tool-cards-on-demand.ts';

/** The tool cards for one render: loaded, still loading, or failed to load (an approval's row offers Retry). */
export type ToolCardsStatus = ToolCards | 'loading' | 'failed';

/**
 * Loads the tool cards (a file of their own: src/parts/tool-cards/tool-cards-on-demand.ts) when the transcript first
 * shows a tool call or an approval, and renders the host again once they have arrived or failed.
 * A failed load stays failed until {@link retry}.
 */
export class ToolCardsController {
  #host: ReactiveControllerHost;
  #adoptStyles: (styles: CSSResult[]) => void;
  #hasStyles = false;
  #isLoading = false;
  #hasFailed = false;

  /** `adoptStyles` adds the cards' styles to the host's own (once, at the first render that shows a card). */
  constructor(host: ReactiveControllerHost, adoptStyles: (styles: CSSResult[]) => void) {
    this.#host = host;
    this.#adoptStyles = adoptStyles;
  }

  /** The cards' status for a render of `state`; starts loading them when `state` shows a card. */
  statusFor(state: Pick<ClientState, 'toolCalls' | 'interrupts'>): ToolCardsStatus {
    const cards = findToolCards();
    if (cards) {
      if (!this.#hasStyles) this.#adoptStyles([cards.tool.styles, cards.approval.styles]);
      this.#hasStyles = true;
      return cards;
    }
    if (this.#hasFailed) return 'failed';
    if (!this.#isLoading && (state.toolCalls.length > 0 || state.interrupts.length > 0)) {
      this.#isLoading = true;
      loadToolCards().then(
        () => this.#settle(false),
        () => this.#settle(true),
      );
    }
    return 'loading';
  }

  /** Tries the load again (an approval row's Retry). */
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
