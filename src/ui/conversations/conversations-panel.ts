import type { AgentClientHandle, Conversations, ConversationsState, SessionResource } from '../../core/index.ts';
import { createConversations, createInitialConversationsState } from '../../core/index.ts';
import { html, LitElement, nothing, svg, type PropertyValues, type TemplateResult } from 'lit';
import { hostStyles } from '../styles/host.styles.ts';
import { conversationsPanelStyles } from './conversations-panel.styles.ts';
import type { ConversationsStrings } from './conversations-strings.ts';
import { conversationsStringsFor, fillIn } from './conversations-strings.ts';

/** Outline icons (24×24 paths): a pencil, a bin and a cross; no icon font, no image request. */
const ICONS = {
  rename: 'M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4',
  delete: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  close: 'M6 6l12 12M18 6L6 18',
} as const;

function renderIcon(path: string): TemplateResult {
  return html`<svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
    ${svg`<path d=${path} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />`}
  </svg>`;
}

/** What a row is doing: shown, being renamed, or asking to confirm its deletion. */
type RowMode = { sessionId: string; kind: 'rename' | 'confirm-delete' } | null;

/** The event the panel fires when it wants to close (after a switch, a new conversation, ✕ or Escape). */
export const CONVERSATIONS_CLOSE_EVENT = 'agent-chat-conversations-close';

/**
 * `<agent-chat-conversations>`: the user's conversations (docs/embedding.md, "Conversations"),
 * as the sheet `<agent-chat>` opens from its header (`sheet`) or placed by the page. Lists them by
 * latest activity, switches (closing the sheet), starts a new one, renames inline (Enter saves,
 * Escape cancels) and deletes after a confirmation. Every control is a real button or input, so it
 * works by keyboard and screen reader.
 *
 * @fires agent-chat-conversations-close - The sheet asks to be closed; the widget moves focus back.
 */
export class AgentChatConversationsElement extends LitElement {
  static override styles = [hostStyles, conversationsPanelStyles];
  static override properties = {
    client: { attribute: false },
    conversations: { attribute: false },
    strings: { attribute: false },
    locale: {},
    theme: { reflect: true },
    sheet: { type: Boolean, reflect: true },
    state: { state: true },
    mode: { state: true },
  };

  /**
   * The widget's client (`chat.client`): the panel makes its conversations itself
   * (`createConversations({ client })`) and disposes them when it leaves the page.
   */
  declare client: AgentClientHandle | null;
  /** Conversations the page made itself; they win over `client`, and the page disposes them. */
  declare conversations: Conversations | null;
  /** The texts; by default those of `locale` (`conversationsStringsFor`). */
  declare strings: ConversationsStrings | undefined;
  /** BCP 47 locale of the texts and of the activity times. */
  declare locale: string | undefined;
  /** The widget's colour scheme (`light`, `dark` or `auto`). */
  declare theme: string | undefined;
  /**
   * Set by `<agent-chat>`: the panel is its modal sheet (a dialog covering the widget, with the
   * widget's theming tokens) instead of a region of the page.
   */
  declare sheet: boolean;
  declare state: ConversationsState;
  declare mode: RowMode;
  /** The conversations shown (`conversations`, else those made from `client`), and how to stop. */
  #shown: Conversations | null = null;
  #stopShowing: (() => void) | null = null;

  constructor() {
    super();
    this.client = null;
    this.conversations = null;
    this.strings = undefined;
    this.locale = undefined;
    this.theme = undefined;
    this.sheet = false;
    this.state = createInitialConversationsState();
    this.mode = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('keydown', this.#onKeydown);
    if (this.hasUpdated) this.#show();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('keydown', this.#onKeydown);
    this.#stopShowing?.();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('conversations') || changed.has('client')) this.#show();
  }

  /** Follows `conversations` (else new ones of `client`) and lists them, after stopping what was shown. */
  #show(): void {
    this.#stopShowing?.();
    const { client } = this;
    const owned = this.conversations === null && client !== null ? createConversations({ client }) : null;
    const conversations = this.conversations ?? owned;
    this.#shown = conversations;
    if (conversations === null) return;
    this.state = conversations.getState();
    const unsubscribe = conversations.subscribe((state) => {
      this.state = state;
    });
    this.#stopShowing = () => {
      unsubscribe();
      owned?.dispose();
      this.#shown = null;
      this.#stopShowing = null;
    };
    void conversations.listSessions().catch(() => undefined);
  }

  /** Moves focus into the sheet: the current conversation's row, else the first control. */
  override focus(): void {
    void this.updateComplete.then(() => {
      const target =
        this.renderRoot.querySelector<HTMLElement>('.row.current .open') ??
        this.renderRoot.querySelector<HTMLElement>('.new-button');
      target?.focus();
    });
  }

  protected override render(): TemplateResult {
    const { state } = this;
    const strings = this.#strings();
    const status = state.error?.message ?? (state.isLoading && state.items.length === 0 ? strings.loading : '');
    return html`<section class="sheet" part="conversations" aria-labelledby="conversations-heading"
      role=${this.sheet ? 'dialog' : nothing} aria-modal=${this.sheet ? 'true' : nothing}>
      <div class="sheet-header">
        <h2 id="conversations-heading">${strings.heading}</h2>
        <button class="new-button primary" part="new-conversation" @click=${this.#startNew}>
          ${strings.newConversation}
        </button>
        <button part="close" aria-label=${strings.close} title=${strings.close} @click=${this.#close}>${renderIcon(ICONS.close)}</button>
      </div>
      <p class="status" role="status" aria-live="polite">${status}</p>
      ${
        state.isLoaded && state.items.length === 0
          ? html`<p class="footer muted">${strings.empty}</p>`
          : html`<ul class="list" aria-labelledby="conversations-heading">
              ${state.items.map((session) => this.#renderRow(session))}
            </ul>`
      }
      ${
        state.nextAfter === null
          ? nothing
          : html`<div class="footer">
              <button ?disabled=${state.isLoading} @click=${this.#loadMore}>${strings.loadMore}</button>
            </div>`
      }
    </section>`;
  }

  #strings(): ConversationsStrings {
    return this.strings ?? conversationsStringsFor(this.locale);
  }

  #renderRow(session: SessionResource): TemplateResult {
    const { mode } = this;
    const strings = this.#strings();
    const title = session.title ?? strings.untitled;
    const isCurrent = session.sessionId === this.state.currentSessionId;
    const rowMode = mode?.sessionId === session.sessionId ? mode.kind : null;
    let body: TemplateResult;
    if (rowMode === 'rename') {
      body = html`<form class="rename-form" @submit=${(event: Event) => this.#saveTitle(event, session)}>
        <input name="title" aria-label=${strings.renameLabel} .value=${session.title ?? ''} maxlength="120"
          required dir="auto" />
        <button type="submit" class="primary">${strings.save}</button>
        <button type="button" @click=${this.#cancelMode}>${strings.cancel}</button>
      </form>`;
    } else if (rowMode === 'confirm-delete') {
      body = html`<div class="confirm" role="group" aria-label=${fillIn(strings.delete, { title })}>
        <p dir="auto">${fillIn(strings.deleteQuestion, { title })}</p>
        <button class="danger" @click=${() => this.#delete(session)}>${strings.deleteConfirm}</button>
        <button class="cancel-button" @click=${this.#cancelMode}>${strings.cancel}</button>
      </div>`;
    } else {
      const isAnswering = session.activeRun !== null;
      body = html`<button class="open" part="conversation" aria-current=${isCurrent ? 'true' : nothing}
          @click=${() => this.#switchTo(session)}>
          <span class="title" dir="auto">${title}</span>
          <span class="meta">${this.#describe(session)}${isAnswering ? html` · ${strings.answering}` : nothing}</span>
        </button>
        <button class="rename-button" aria-label=${fillIn(strings.rename, { title })}
          title=${fillIn(strings.rename, { title })} @click=${() => this.#setMode(session, 'rename')}>${renderIcon(ICONS.rename)}</button>
        <button class="delete-button" aria-label=${fillIn(strings.delete, { title })}
          title=${isAnswering ? strings.deleteBlocked : fillIn(strings.delete, { title })} ?disabled=${isAnswering}
          @click=${() => this.#setMode(session, 'confirm-delete')}>${renderIcon(ICONS.delete)}</button>`;
    }
    return html`<li class="row ${isCurrent ? 'current' : ''}" data-session-id=${session.sessionId}>${body}</li>`;
  }

  #describe(session: SessionResource): string {
    const when = new Date(session.updatedAt).toLocaleString(this.locale, { dateStyle: 'medium', timeStyle: 'short' });
    const strings = this.#strings();
    const count = session.messageCount === 1 ? (strings.oneMessage ?? strings.messages) : strings.messages;
    return `${fillIn(count, { count: session.messageCount })} · ${when}`;
  }

  #setMode(session: SessionResource, kind: 'rename' | 'confirm-delete'): void {
    this.mode = { sessionId: session.sessionId, kind };
    void this.updateComplete.then(() => {
      const row = this.#rowOf(session.sessionId);
      const target =
        kind === 'rename' ? row?.querySelector('input') : row?.querySelector<HTMLElement>('.cancel-button');
      target?.focus();
      if (target instanceof HTMLInputElement) target.select();
    });
  }

  #cancelMode = (): void => {
    const sessionId = this.mode?.sessionId;
    this.mode = null;
    if (sessionId !== undefined) this.#focusRow(sessionId, '.open');
  };

  async #saveTitle(event: Event, session: SessionResource): Promise<void> {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).querySelector('input');
    const title = input?.value.trim() ?? '';
    if (title === '' || title === session.title) {
      this.#cancelMode();
      return;
    }
    try {
      await this.#shown?.renameSession(session.sessionId, title);
      this.#cancelMode();
    } catch {
      // The error is in state (shown in the status line); the field keeps what was typed.
      input?.focus();
    }
  }

  async #delete(session: SessionResource): Promise<void> {
    const index = this.state.items.findIndex((item) => item.sessionId === session.sessionId);
    try {
      await this.#shown?.deleteSession(session.sessionId);
    } catch {
      this.mode = null;
      this.#focusRow(session.sessionId, '.open');
      return;
    }
    this.mode = null;
    // Focus goes to the row that took its place (or the new-conversation button when none is left).
    const next = this.state.items[Math.min(index, this.state.items.length - 1)];
    if (next === undefined) this.focus();
    else this.#focusRow(next.sessionId, '.open');
  }

  async #switchTo(session: SessionResource): Promise<void> {
    this.#close();
    await this.#shown?.switchSession(session.sessionId).catch(() => undefined);
  }

  #startNew = (): void => {
    try {
      this.#shown?.newSession();
    } catch {
      return;
    }
    this.#close();
  };

  #loadMore = (): void => {
    void this.#shown?.listSessions({ isNextPage: true }).catch(() => undefined);
  };

  #close = (): void => {
    this.dispatchEvent(new CustomEvent(CONVERSATIONS_CLOSE_EVENT, { bubbles: true, composed: true }));
  };

  #onKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    if (this.mode === null) this.#close();
    else this.#cancelMode();
  };

  #rowOf(sessionId: string): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>(`li[data-session-id="${CSS.escape(sessionId)}"]`);
  }

  #focusRow(sessionId: string, selector: string): void {
    void this.updateComplete.then(() => this.#rowOf(sessionId)?.querySelector<HTMLElement>(selector)?.focus());
  }
}

/** Defines `<agent-chat-conversations>` once (the on-demand file and the ESM build both call it). */
export function defineConversationsPanel(): void {
  if (customElements.get('agent-chat-conversations') === undefined) {
    customElements.define('agent-chat-conversations', AgentChatConversationsElement);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'agent-chat-conversations': AgentChatConversationsElement;
  }
}
