import type { CSSResult, TemplateResult } from 'lit';
import type { AgentClient, MessageFeedback, SnapshotMessage } from '../core/index.ts';
import type { SiblingTemplating } from './card-templating.ts';
import { copyToClipboard } from './clipboard/copy-to-clipboard.ts';
import type { AgentChatStrings } from './i18n/en.ts';
import { checkLinkUrl } from './markdown/check-link-url.ts';
import { findTurnEnds } from './message-list/find-turn-ends.ts';
import { OlderMessagesController } from './agent-chat/older-messages-controller.ts';
import type { MessageReference } from './message-list/message-list.ts';
import { EN_TURN_STRINGS } from './i18n/en-turn-actions.ts';
import type { BranchClient } from './turn-branches.ts';
import { createTurnBranches } from './turn-branches.ts';

/** What the actions under one finished turn render from. */
export interface TurnActionsView {
  /** The turn's last answer (finished). */
  message: SnapshotMessage;
  strings: AgentChatStrings;
  /**
   * Where votes go (`sendFeedback`; the message's `feedback` shows it once kept; its bootstrap says
   * how long a comment may be) and, when it can send protocol requests, regenerations, edits and
   * moves between a turn's versions; undefined: none of them.
   */
  client: AgentClient | undefined;
  /** False: no thumbs (the `feedback` option off). */
  feedback: boolean | undefined;
}

/** What goes under a finished answer, rendering with the widget's Lit: its actions and its sources. */
export interface TurnActions {
  /** The answers that end a turn, the ones that carry the actions. */
  findTurnEnds: typeof findTurnEnds;
  render(view: TurnActionsView): TemplateResult;
  /**
   * The product's source cards for a finished answer (`getReferences`): only absolute http(s) URLs,
   * each with its host beside its title, opening in a new context; undefined when none is left.
   */
  renderSources(references: MessageReference[], strings: AgentChatStrings): TemplateResult | undefined;
  styles: CSSResult;
  /**
   * Loads older messages as the person scrolls up a restored conversation, keeping their place
   * (it ships here: a conversation with older messages has finished turns).
   */
  OlderMessagesController: typeof OlderMessagesController;
}

/** The widget's strings with the turn actions' English defaults under them, made once per strings object. */
const turnStringsOf = new WeakMap<AgentChatStrings, typeof EN_TURN_STRINGS & AgentChatStrings>();

/**
 * `strings` over the turn actions' defaults. A render shows every finished turn's actions, so the
 * merged object is kept per strings object rather than spread again for each turn.
 */
function withTurnStrings(strings: AgentChatStrings): typeof EN_TURN_STRINGS & AgentChatStrings {
  let merged = turnStringsOf.get(strings);
  if (merged === undefined) {
    merged = { ...EN_TURN_STRINGS, ...strings };
    turnStringsOf.set(strings, merged);
  }
  return merged;
}

const THUMB_UP = 'M7 11v9H4v-9zm0 0 4-7a2 2 0 0 1 2 2v4h5a2 2 0 0 1 2 2l-1.5 6a2 2 0 0 1-2 2H7';
const THUMB_DOWN = 'M7 13V4H4v9zm0 0 4 7a2 2 0 0 0 2-2v-4h5a2 2 0 0 0 2-2l-1.5-6a2 2 0 0 0-2-2H7';
const COPY = 'M9 9h10v10H9zM5 15V5h10';

/**
 * Creates what goes under a finished answer (the script tag's sibling file
 * `agent-chat.turn-actions.js`): the product's source cards, and the turn's actions: Copy
 * (the answer's Markdown source; the button then says "Copied"), and with `canVote` thumbs up and
 * down (the chosen one pressed) and, once voted, a short comment sent with the same rating.
 * Everything renders through `templating`, so this file holds no Lit and no Trusted Types policy.
 */
export function createTurnActions(templating: SiblingTemplating): TurnActions {
  const { html, css, nothing, renderVisibleText } = templating;
  const icon = (path: string) =>
    html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d=${path}></path></svg>`;
  const renderBranches = createTurnBranches(templating);

  function copy(event: Event, content: string, copied: string): void {
    const button = event.currentTarget as HTMLButtonElement;
    void copyToClipboard(content).then((isCopied) => {
      if (!isCopied) return;
      button.title = copied;
      button.setAttribute('aria-label', copied);
      button.toggleAttribute('data-copied', true);
    });
  }

  function renderVotes(
    view: TurnActionsView,
    strings: typeof EN_TURN_STRINGS & AgentChatStrings,
    client: AgentClient,
  ): TemplateResult {
    const { message } = view;
    const onVote = (feedback: MessageFeedback) =>
      void client.sendFeedback(message.runId ?? '', message.messageId, feedback).catch(() => undefined);
    const rating = message.feedback?.rating;
    const thumb = (value: MessageFeedback['rating'], label: string, path: string) =>
      html`<button class="icon-button" data-rating=${value} aria-label=${label} title=${label} aria-pressed=${rating === value ? 'true' : 'false'} @click=${() => onVote({ rating: value })}>
        ${icon(path)}
      </button>`;
    const submit = (event: SubmitEvent) => {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const comment = (form.elements.namedItem('comment') as HTMLTextAreaElement).value.trim();
      if (rating !== undefined) onVote(comment === '' ? { rating } : { rating, comment });
      (form.parentElement as HTMLDetailsElement).open = false;
    };
    return html`${thumb('up', strings.rateUp, THUMB_UP)}${thumb('down', strings.rateDown, THUMB_DOWN)}
      ${
        rating === undefined
          ? nothing
          : html`<details class="feedback-comment">
            <summary>${strings.feedbackComment}</summary>
            <form @submit=${submit}>
              <textarea name="comment" aria-label=${strings.feedbackComment} maxlength=${client.getState().bootstrap?.limits.maxCommentChars ?? 1000} dir="auto" .value=${message.feedback?.comment ?? ''}></textarea>
              <button type="submit">${strings.send}</button>
            </form>
          </details>`
      }`;
  }

  return {
    findTurnEnds,
    OlderMessagesController,
    renderSources(references, strings) {
      const safe = references.flatMap((reference) => {
        const checked = checkLinkUrl(reference.url);
        return checked?.host ? [{ title: reference.title, href: checked.href, host: checked.host }] : [];
      });
      if (safe.length === 0) return undefined;
      return html`<nav class="references chips" aria-label=${withTurnStrings(strings).sources}>
        ${safe.map(
          ({
            title,
            href,
            host,
          }) => html`<a class="reference-card chip" href=${href} target="_blank" rel="noopener noreferrer">
            <span dir="auto">${renderVisibleText(title, true)}</span> <span class="muted">${host}</span>
          </a>`,
        )}
      </nav>`;
    },
    render(view) {
      const { message, client } = view;
      const strings = withTurnStrings(view.strings);
      return html`<div part="message-actions" class="message-actions">
        <button class="icon-button" aria-label=${strings.copyMessage} title=${strings.copyMessage} @click=${(event: Event) => copy(event, message.content, strings.copied)}>
          ${icon(COPY)}
        </button>
        ${client && 'request' in client ? renderBranches(message, client as BranchClient, strings) : nothing}
        ${client && view.feedback !== false ? renderVotes(view, strings, client) : nothing}
      </div>`;
    },
    styles: css`
      .references {
        margin-top: var(--agent-chat-space-xs);
      }
      .reference-card:hover {
        border-color: var(--agent-chat-color-accent);
      }
      .message-actions {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--agent-chat-space-xs);
      }
      .message-actions .icon-button {
        width: 28px;
        height: 28px;
        border-color: transparent;
        background: transparent;
        color: var(--agent-chat-color-text-muted);
      }
      .message-actions [data-copied],
      .message-actions [aria-pressed='true'] {
        color: var(--agent-chat-color-success);
      }
      .message-actions [data-rating='down'][aria-pressed='true'] {
        color: var(--agent-chat-color-danger);
      }
      .turn-edit > summary {
        display: inline-grid;
        place-items: center;
      }
      .turn-edit > summary::after {
        content: none;
      }
      .turn-edit form {
        flex-wrap: wrap;
      }
      .turn-edit output {
        flex-basis: 100%;
        color: var(--agent-chat-color-danger);
        font-size: var(--agent-chat-font-size-small);
      }
      .turn-edit output:empty {
        display: none;
      }
      .turn-edit[open] {
        flex-basis: 100%;
        order: 1;
      }
      .turn-versions {
        display: inline-flex;
        align-items: center;
        font-size: var(--agent-chat-font-size-small);
        color: var(--agent-chat-color-text-muted);
        font-variant-numeric: tabular-nums;
      }
      .feedback-comment summary {
        cursor: pointer;
        font-size: var(--agent-chat-font-size-small);
        color: var(--agent-chat-color-text-muted);
      }
      .turn-edit form,
      .feedback-comment form {
        display: flex;
        gap: var(--agent-chat-space-xs);
        margin-block-start: var(--agent-chat-space-xs);
      }
      .turn-edit textarea,
      .feedback-comment textarea {
        flex: 1;
        border: 1px solid var(--agent-chat-color-border);
        border-radius: var(--agent-chat-radius-small);
        padding: var(--agent-chat-space-xs);
        min-height: 3em;
        font: inherit;
      }
      /* Phones: 16 px fields, so iOS does not zoom into them. */
      @media (max-width: 480px) {
        .turn-edit textarea,
        .feedback-comment textarea {
          font-size: 16px;
        }
      }
      /* With a mouse, the actions show on the answer's hover or keyboard focus; touch screens always show them. */
      @media (hover: hover) {
        .message:not(:hover) .message-actions:not(:focus-within):not(:has([open])) {
          opacity: 0;
        }
      }
    `,
  };
}
