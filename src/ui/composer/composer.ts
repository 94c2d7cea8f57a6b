import { html, nothing, type CSSResult, type ReactiveElement, type TemplateResult } from 'lit';
import type { ReasoningEffort } from '../../core/index.ts';
import { findComposerExtras, loadComposerExtras } from '../../parts/composer-extras/composer-extras-on-demand.ts';
import type { AttachmentTray } from '../attachment-tray.ts';
import type { MessageFiles } from '../attachments/tray-state.ts';
import { findFileDestination, type AttachingOptions } from '../attachments/attaching.ts';
import type { ComposerExtras } from '../composer-extras.ts';
import { createPartForRender, type PartForRender } from '../sibling-part-loader.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import { ICON_PATHS } from '../icon-paths.ts';
import { renderIcon } from '../icons.ts';

/** The counter appears once the text reaches this share of the input limit. */
export const INPUT_LIMIT_WARNING_RATIO = 0.8;

/** What the composer asks its host to do; each is read at call time. */
export interface ComposerActions {
  /** Sends text with its files; resolves once the server accepted it, rejects when it failed. */
  send: (text: string, files: MessageFiles) => Promise<unknown>;
  stop: () => void;
  /** What attaching does now (files, the product's picker, both or neither: then no attach button). */
  readAttachments: () => AttachingOptions;
  /** Adds the composer extras' styles to the host's, once they arrive. */
  adoptStyles: (styles: CSSResult[]) => void;
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

/**
 * The composer's state (text, attachments, whether a send is in flight) and its form. Not a Lit
 * controller: the element owns it and calls `render` and `restore`. An autosizing textarea (CSS `field-sizing`, no inline styles) where Enter sends
 * and Shift+Enter breaks the line, never during IME composition, inside one rounded box with one
 * icon button: Send (↑), or Stop (■) while a run is active and there is nothing to add to it; a
 * character counter near the limit. Its extras come in a file of their own (src/ui/composer-extras.ts),
 * loaded when first offered: a reasoning effort picker when the view offers efforts, and the
 * attachment tray, where files and references wait (a file
 * of its own, loaded once attaching is offered); Send waits for their uploads. The text and the
 * files are cleared only after the send resolves, so a failed send keeps them; focus returns to
 * the textarea after.
 */
export class Composer {
  text = '';
  /** The effort picked for every next send; empty leaves it to the server. */
  effort: ReasoningEffort | '' = '';
  isSending = false;
  #host: ReactiveElement;
  #actions: ComposerActions;
  /** The extras once their file has loaded (their styles then join the host's); a file that does not load leaves them off. */
  #extras: PartForRender<ComposerExtras>;
  #tray: AttachmentTray | undefined;

  constructor(host: ReactiveElement, actions: ComposerActions) {
    this.#host = host;
    this.#actions = actions;
    this.#extras = createPartForRender(host, { find: findComposerExtras, load: loadComposerExtras }, (extras) =>
      actions.adoptStyles(extras.styles),
    );
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
    const tray = this.#offeredTray();
    try {
      const outgoing = tray?.prepareSend();
      await this.#actions.send(text, outgoing?.files ?? {});
      if (this.text === text) this.text = '';
      outgoing?.sent();
    } catch {
      // The failure is shown from the client's state; the text stays for another try.
    } finally {
      this.isSending = false;
      this.#host.requestUpdate();
      await this.#host.updateComplete;
      this.focus();
    }
  }

  /** Renders the composer form. */
  render(view: ComposerView): TemplateResult {
    const { strings, maxInputChars } = view;
    const count = this.text.length;
    const isOverLimit = maxInputChars !== null && count > maxInputChars;
    const isLimitShown = maxInputChars !== null && count >= maxInputChars * INPUT_LIMIT_WARNING_RATIO;
    const tray = this.#offeredTray();
    return html`<form part="composer" class="composer" @submit=${(event: Event) => this.#onSubmit(event, view)}>
      ${tray?.renderChips(strings)}
      <div class="composer-row">
        ${tray?.renderButton(strings)}
        ${
          view.efforts.length > 0
            ? this.#extras(true)?.renderEffortPicker({
                efforts: view.efforts,
                picked: this.effort,
                strings,
                onPick: (effort) => (this.effort = effort),
              })
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
          @paste=${(event: ClipboardEvent) => tray?.onPaste(event)}
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

  /** Files dragged over the widget: accepted while files are offered. */
  onDragOver = (event: DragEvent): void => this.#offeredTray()?.onDragOver(event);
  /** Files dropped on the widget go into the tray. */
  onDrop = (event: DragEvent): void => this.#offeredTray()?.onDrop(event);

  /** The attachment tray while attaching is offered (once the extras' file is there). */
  #offeredTray(): AttachmentTray | undefined {
    const options = this.#actions.readAttachments();
    if (!options.selectAttachments && !findFileDestination(options)) return undefined;
    this.#tray ??= this.#extras(true)?.createTray({
      read: () => this.#actions.readAttachments(),
      requestUpdate: () => this.#host.requestUpdate(),
      focusInput: () => void this.#host.updateComplete.then(() => this.focus()),
    });
    return this.#tray;
  }

  #canSend(view: ComposerView): boolean {
    if (this.isSending || this.text.trim() === '') return false;
    const tray = this.#offeredTray();
    // Files go with a new message only: while a run takes added text, they wait for its end.
    if (tray && (tray.isBlocking() || (view.isRunActive && tray.items.length > 0))) return false;
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

  /** Focuses the composer's text field (never a turn's Edit or comment field, which are textareas too). */
  focus(): void {
    (this.#host.renderRoot as ParentNode).querySelector<HTMLElement>('[part=input]')?.focus();
  }
}
