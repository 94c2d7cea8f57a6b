import { html, nothing, type TemplateResult } from 'lit';
import type { AgentChatStrings } from '../i18n/en.ts';
import { ICON_PATHS } from '../icon-paths.ts';
import { renderIcon } from '../icons.ts';

/** What the header shows. */
export interface ChatHeaderView {
  title: string;
  /** The product's avatar image (a trusted URL from the mount options; the page's CSP must allow it in `img-src`). */
  avatarUrl: string | undefined;
  strings: AgentChatStrings;
  /** The conversation has something to leave: "New conversation" is enabled. */
  canStartNew: boolean;
  onNewConversation: () => void;
  /** Set when the conversations sheet is available: the header gets a "Conversations" button that calls it. */
  onConversations: (() => void) | undefined;
  /** Set in a launcher panel: the header gets a close button that calls it. */
  onClose: (() => void) | undefined;
}

/** Renders the header: avatar, agent name, "Conversations" when available, "New conversation", and ✕ in a launcher panel. */
export function renderChatHeader(view: ChatHeaderView): TemplateResult {
  const { strings } = view;
  return html`<header part="header" class="header">
    ${view.avatarUrl ? html`<img part="avatar" class="avatar" src=${view.avatarUrl} alt="" />` : nothing}
    <h2 class="header-title" dir="auto">${view.title}</h2>
    ${
      view.onConversations
        ? html`<button part="conversations-button" class="icon-button" aria-label=${strings.conversations} title=${strings.conversations}
          aria-haspopup="dialog" @click=${view.onConversations}>${renderIcon(ICON_PATHS.chat)}</button>`
        : nothing
    }
    <button part="new-conversation-button" class="icon-button" aria-label=${strings.newConversation} title=${strings.newConversation}
      ?disabled=${!view.canStartNew} @click=${view.onNewConversation}>${renderIcon(ICON_PATHS.newConversation)}</button>
    ${
      view.onClose
        ? html`<button part="close-button" class="icon-button" aria-label=${strings.launcherClose} title=${strings.launcherClose}
          @click=${view.onClose}>${renderIcon(ICON_PATHS.close)}</button>`
        : nothing
    }
  </header>`;
}

/** What the empty conversation shows. */
export interface EmptyStateView {
  greeting: string;
  suggestions: readonly string[];
  strings: AgentChatStrings;
  onSuggestion: (text: string) => void;
}

/** Renders the empty conversation: the greeting and the product's suggestion chips (each sends its text). */
export function renderEmptyState(view: EmptyStateView): TemplateResult {
  return html`<div part="empty-state" class="empty-state">
    <p class="greeting" dir="auto">${view.greeting}</p>
    ${
      view.suggestions.length > 0
        ? html`<ul class="chips suggestions" aria-label=${view.strings.suggestions}>
          ${view.suggestions.map(
            (text) =>
              html`<li><button part="suggestion" class="chip" dir="auto" @click=${() => view.onSuggestion(text)}>${text}</button></li>`,
          )}
        </ul>`
        : nothing
    }
  </div>`;
}
