import { html, nothing, type ReactiveElement, type TemplateResult } from 'lit';
import type { ContextRef, ReasoningEffort } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import { ICON_PATHS } from '../icon-paths.ts';
import { renderIcon } from '../icons.ts';

/** The counter appears once the text reaches this share of the input limit. */
export const INPUT_LIMIT_WARNING_RATIO = 0.8;

/** What the composer asks its host to do; each is read at call time. */
export interface ComposerActions {
  /** Sends text with its references; resolves once the server accepted it, rejects when it failed. */
  send: (text: string, contextRefs: ContextRef[]) => Promise<unknown>;
  stop: () => void;
  /** The product's attachment picker, when it offers one. */
  getSelectAttachments: () => (() => Promise<ContextRef[]>) | undefined;
}

/** What the composer shows on each render. */
export interface ComposerView {
  strings: AgentChatStrings;
  maxInputChars: number | null;
  isRunActive: boolean;
  canSendDuringRun: boolean;
  /** Stop is offered: a run is active or its create is still unanswered. */
  canStop: boolean;
  /** Stop was pressed and the server has not confirmed yet: the button says so and waits. */
  isStopping: boolean;
  /** The reasoning efforts the picker offers (the model's `reasoningOptions`); empty hides it. */
  efforts: readonly ReasoningEffort[];
}

/** The label of each reasoning effort in the picker. */
const EFFORT_LABEL_KEYS: Record<ReasoningEffort, Extract<keyof AgentChatStrings, `effort${string}`>> = {
  low: 'effortLow',
  medium: 'effortMedium',
  high: 'effortHigh',
  xhigh: 'effortXhigh',
  max: 'effortMax',
};

/**
 * The composer's state (text, attachments, whether a send is in flight) and its form. Not a Lit
 * controller: the element owns it and calls `render` and `restore`. An autosizing textarea (CSS `field-sizing`, no inline styles) where Enter sends
 * and Shift+Enter breaks the line, never during IME composition, inside one rounded box with one
 * icon button: Send (↑), or Stop (■) while a run is active and there is nothing to add to it; a
 * character counter near the limit; reference chips from the product's picker; a reasoning effort
 * picker when the view offers efforts. The text is cleared
 * only after the send resolves, so a failed send keeps it; focus returns to the textarea after.
 */
export class Composer {
  text = '';
  attachments: ContextRef[] = [];
  /** The effort picked for every next send; empty leaves it to the server. */
  effort: ReasoningEffort | '' = '';
  isSending = false;
  #host: ReactiveElement;
  #actions: ComposerActions;

  constructor(host: ReactiveElement, actions: ComposerActions) {
    this.#host = host;
    this.#actions = actions;
  }

  /** Puts `text` back into an empty composer (a send that failed after the text was cleared). */
  restore(text: string): void {
    if (this.text !== '') return;
    this.text = text;
    this.#host.requestUpdate();
  }

  /** Sends the current text unless it is empty, too long, already sending or a run forbids it. */
  async submit(view: ComposerView): Promise<void> {
    const text = this.text;
    if (!this.#canSend(view)) return;
    this.isSending = true;
    this.#host.requestUpdate();
    try {
      await this.#actions.send(text, this.attachments);
      if (this.text === text) this.text = '';
      this.attachments = [];
    } catch {
      // The failure is shown from the client's state; the text stays for another try.
    } finally {
      this.isSending = false;
      this.#host.requestUpdate();
      await this.#host.updateComplete;
      this.#textarea()?.focus();
    }
  }

  /** Renders the composer form. */
  render(view: ComposerView): TemplateResult {
    const { strings, maxInputChars } = view;
    const count = this.text.length;
    const isOverLimit = maxInputChars !== null && count > maxInputChars;
    const isLimitShown = maxInputChars !== null && count >= maxInputChars * INPUT_LIMIT_WARNING_RATIO;
    const canAttach = this.#actions.getSelectAttachments() !== undefined;
    return html`<form part="composer" class="composer" @submit=${(event: Event) => this.#onSubmit(event, view)}>
      ${
        this.attachments.length > 0
          ? html`<ul class="attachments chips">
            ${this.attachments.map(
              (ref) => html`<li class="attachment chip">
                <span dir="auto">${ref.title ?? ref.ref}</span>
                <button type="button" class="attachment-remove" aria-label=${formatString(strings.removeAttachment, { title: ref.title ?? ref.ref })} @click=${() => this.#remove(ref)}>×</button>
              </li>`,
            )}
          </ul>`
          : nothing
      }
      <div class="composer-row">
        ${
          canAttach
            ? html`<button type="button" part="attach-button" class="attach-button" aria-label=${strings.attach} title=${strings.attach} @click=${() => void this.#attach()}>+</button>`
            : nothing
        }
        ${
          view.efforts.length > 0
            ? html`<select part="effort-select" class="effort-select" aria-label=${strings.effort} @change=${this.#onEffort}>
              <option value="">${strings.effort}</option>
              ${view.efforts.map((level) => html`<option value=${level} ?selected=${level === this.effort}>${strings[EFFORT_LABEL_KEYS[level]]}</option>`)}
            </select>`
            : nothing
        }
        <textarea
          part="input"
          rows="1"
          dir="auto"
          aria-label=${strings.composerLabel}
          aria-invalid=${isOverLimit}
          aria-describedby=${isLimitShown ? 'composer-limit' : nothing}
          placeholder=${strings.composerPlaceholder}
          .value=${this.text}
          @input=${this.#onInput}
          @keydown=${(event: KeyboardEvent) => this.#onKeydown(event, view)}
        ></textarea>
        ${
          view.canStop && (this.isSending || !view.canSendDuringRun || this.text.trim() === '')
            ? html`<button type="button" part="stop-button" class="icon-button stop-button" aria-label=${view.isStopping ? strings.stopping : strings.stop}
              title=${strings.stop} ?disabled=${view.isStopping} @click=${() => this.#actions.stop()}>${renderIcon(ICON_PATHS.stop)}</button>`
            : html`<button type="submit" part="send-button" class="icon-button primary send-button" aria-label=${strings.send} title=${strings.send}
              ?disabled=${!this.#canSend(view)}>${renderIcon(ICON_PATHS.send)}</button>`
        }
      </div>
      ${
        isLimitShown
          ? html`<p id="composer-limit" class="limit" data-over=${isOverLimit}>
            ${formatString(isOverLimit ? strings.inputOverLimit : strings.inputLimit, { count, max: maxInputChars })}
          </p>`
          : nothing
      }
    </form>`;
  }

  #canSend(view: ComposerView): boolean {
    if (this.isSending || this.text.trim() === '') return false;
    if (view.maxInputChars !== null && this.text.length > view.maxInputChars) return false;
    return !view.isRunActive || view.canSendDuringRun;
  }

  #onSubmit(event: Event, view: ComposerView): void {
    event.preventDefault();
    void this.submit(view);
  }

  #onInput = (event: Event): void => {
    this.text = (event.target as HTMLTextAreaElement).value;
    this.#host.requestUpdate();
  };

  #onEffort = (event: Event): void => {
    this.effort = (event.target as HTMLSelectElement).value as ReasoningEffort | '';
  };

  /**
   * Enter sends (Shift+Enter breaks the line); Escape stops the answer while Stop is offered, and
   * is kept from the launcher then, so the panel stays open on the stopped answer.
   */
  #onKeydown(event: KeyboardEvent, view: ComposerView): void {
    // keyCode 229 is how Chromium and Safari flag keys that an IME is still composing.
    if (event.isComposing || event.keyCode === 229) return;
    if (event.key === 'Escape' && view.canStop && !view.isStopping) {
      event.preventDefault();
      event.stopPropagation();
      this.#actions.stop();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    void this.submit(view);
  }

  async #attach(): Promise<void> {
    const select = this.#actions.getSelectAttachments();
    if (!select) return;
    const refs = await select();
    const known = new Set(this.attachments.map((ref) => ref.ref));
    this.attachments = [...this.attachments, ...refs.filter((ref) => !known.has(ref.ref))];
    this.#host.requestUpdate();
  }

  #remove(ref: ContextRef): void {
    this.attachments = this.attachments.filter((item) => item !== ref);
    this.#host.requestUpdate();
    void this.#host.updateComplete.then(() => this.#textarea()?.focus());
  }

  #textarea(): HTMLTextAreaElement | null {
    return (this.#host.renderRoot as ParentNode).querySelector('textarea');
  }
}
