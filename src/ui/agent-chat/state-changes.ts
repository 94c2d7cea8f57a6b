import type { ClientError, ClientState } from '../../core/index.ts';
import { announceText } from './announce-text.ts';

/** What a new state asks the element to do; each field is set only when there is something to do. */
export interface StateEffects {
  /** The screen-reader text of the latest answer that finished since the previous state. */
  announcement?: string;
  /** An error shown for the first time (the element emits `agent-chat-error`). */
  newError?: ClientError;
  /** A failed send's text to put back into an empty composer (once per send). */
  restoredText?: string;
}

/**
 * Compares each new client state with the ones seen before and returns its side effects: one
 * announcement per finished answer (answers already finished when the first state arrives, i.e.
 * history, and older ones loaded before them are not news), each new error once, each failed send's text once. It only computes;
 * the element applies the effects.
 */
export class StateChangeTracker {
  #observed: ClientState | null = null;
  #announced: Set<string> | null = null;
  #lastError: ClientError | null = null;
  #restoredSendId = '';

  /** Returns the effects of `state`; a state already observed (the same object) has none. */
  observe(state: ClientState): StateEffects {
    if (state === this.#observed) return {};
    this.#observed = state;
    const effects: StateEffects = {};
    const finished = state.messages.filter((message) => message.role === 'assistant' && message.status === 'complete');
    if (this.#announced === null) {
      this.#announced = new Set(finished.map((message) => message.messageId));
    } else {
      const announced = this.#announced;
      // Older messages put before those seen (a page of history) are not news either.
      const firstSeen = finished.findIndex((message) => announced.has(message.messageId));
      const fresh = finished.filter((message) => !announced.has(message.messageId));
      for (const message of fresh) announced.add(message.messageId);
      const last = fresh.at(-1);
      if (last && finished.indexOf(last) > firstSeen) effects.announcement = announceText(last.content);
    }
    if (state.error && state.error !== this.#lastError) effects.newError = state.error;
    this.#lastError = state.error;
    const pending = state.pendingSend;
    if (pending?.status === 'failed' && pending.clientMessageId !== this.#restoredSendId) {
      this.#restoredSendId = pending.clientMessageId;
      effects.restoredText = pending.text;
    }
    return effects;
  }
}
