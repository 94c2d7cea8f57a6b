import { html, nothing, type TemplateResult } from 'lit';
import type {
  ApprovalDecision,
  ClientState,
  AgentClient,
  SnapshotMessage,
  SnapshotToolCall,
} from '../../core/index.ts';
import { renderErrorReference } from '../agent-chat/error-box.ts';
import type { ToolCardsStatus } from '../agent-chat/tool-cards-controller.ts';
import { describeApprovalOutcome } from '../approval-card/describe-approval-outcome.ts';
import { renderVisibleText } from '../text/render-visible-text.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import { renderReasoningPanel } from '../reasoning-panel/reasoning-panel.ts';
import { buildTranscriptItems } from './build-transcript-items.ts';
import { markdownBody } from './markdown-body.ts';
import type { RowChunks } from './row-chunks.ts';
import { buildRowView, rowInputsOf, type ApprovalView, type RowView } from './row-view.ts';
import { transcriptRow } from './transcript-row.ts';
import type { TurnActions } from '../turn-actions.ts';

/** A source card for an assistant message; only http(s) URLs are shown. */
export interface MessageReference {
  title: string;
  url: string;
}

/** Renders a product's own card for one tool call (trusted product code, never model output). */
export type ToolCardRenderer = (toolCall: SnapshotToolCall) => TemplateResult | Node;

/**
 * What `renderMessageList` needs. Each row renders from its view (`row-view.ts`) and is templated
 * again only when a value of that view changes by identity (its message or tool call and
 * approvals, `strings`, `locale`, its renderer, `getReferences`, its submitting and open flags),
 * so a product that changes what a callback
 * returns passes a new function. `onToggleReasoning` and `onDecide` may be new closures on every
 * render but must do the same thing: an unchanged row keeps the ones it rendered with.
 */
export interface MessageListOptions {
  state: ClientState;
  strings: AgentChatStrings;
  locale: string;
  isReasoningOpen: (message: SnapshotMessage, index: number) => boolean;
  onToggleReasoning: (messageId: string, isOpen: boolean) => void;
  onDecide: (interruptId: string, decision: ApprovalDecision) => void;
  /** Shows a failed answer's reference as a line of its own instead of behind Details. */
  showErrorReference?: boolean | undefined;
  /** Retries the failed run the client's error is about (its row offers Retry). */
  onRetry: () => void;
  renderers?: Record<string, ToolCardRenderer> | undefined;
  getReferences?: ((message: SnapshotMessage) => MessageReference[]) | undefined;
  /** Epoch ms of this render (approvals say when they expire relative to it). */
  now: number;
  /** What renders tool call and approval cards: until they have loaded, a tool call's row is its title and status, an approval's says so (and offers Retry when the load failed). */
  toolCards: ToolCardsStatus;
  /** Loads the tool cards again after they failed. */
  onRetryToolCards: () => void;
  /** What renders each turn's actions (Copy, the votes; a file of their own): none until loaded. */
  turnActions: TurnActions | undefined;
  /** The client the turn actions send votes, regenerations, edits and branch moves with. */
  client: AgentClient | undefined;
  /** False: the turn actions offer no votes (the `feedback` option off). */
  feedback: boolean | undefined;
  /** Keeps the rows shown so far in their DOM when older ones are put before them (one per list). */
  rowChunks?: RowChunks;
  /** While the user waits on an answer that shows nothing yet (`isAwaitingAnswer`): what the working row in its place says (`describeWait`). */
  workingLabel: string | null;
}

/**
 * Renders the transcript rows in reading order, each keyed by its message, tool call or interrupt
 * id. While a run streams, new rows arrive at the end, so every row keeps its DOM (and each
 * assistant message its one streaming Markdown renderer), and only rows whose inputs changed are
 * templated again (one per streamed delta). When an item lands earlier (a tool call or approval
 * listed last until its message appears), the rows after it are rebuilt rather than reused, so no
 * state carries over to another item. Rows that come before all those shown (older messages) render
 * as a chunk of their own (`rowChunks`), so the rows already shown keep their DOM.
 */
export function renderMessageList(options: MessageListOptions): TemplateResult {
  const { state } = options;
  const items = buildTranscriptItems(state);
  const pending = state.pendingSend;
  const isPendingShown =
    pending?.status === 'sending' &&
    !state.messages.some((message) => message.clientMessageId === pending.clientMessageId);
  let messageIndex = 0;
  // Which rows end a turn matters only to the turn actions, which know it once they have loaded.
  const sources = {
    ...options,
    turnEnds: options.turnActions?.findTurnEnds(state.messages, state.toolCalls) ?? new Set(),
  };
  const rows = items.map((item) => {
    const index = item.kind === 'message' ? messageIndex++ : -1;
    const view = buildRowView(item, index, sources);
    return transcriptRow(item.key, rowInputsOf(view), () => renderRow(view, options));
  });
  // Each chunk nests the older ones in its first part, so a chunk put before them all leaves their DOM as it is.
  let chunks: unknown = nothing;
  let start = 0;
  for (const chunk of options.rowChunks?.split(items) ?? [items]) {
    const end = start + chunk.length;
    chunks = html`${chunks}${rows.slice(start, end)}`;
    start = end;
  }
  return html`${chunks}
    ${
      isPendingShown
        ? html`<article part="message user-message" class="message user" data-status="sending">
          <div class="message-body" dir="auto">${pending.text}</div>
          <p class="message-note muted">${options.strings.sending}</p>
        </article>`
        : nothing
    }
    ${
      options.workingLabel === null
        ? nothing
        : html`<div part="working" class="working" aria-hidden="true"><i></i><i></i><i></i>${options.workingLabel}</div>`
    }`;
}

/** Renders one row from its view alone (plus the callbacks, which a kept row does not replace). */
function renderRow(view: RowView, options: MessageListOptions): TemplateResult {
  const approval = ({ cards, ...item }: ApprovalView, toolCall: SnapshotToolCall | undefined) =>
    typeof cards === 'object'
      ? cards.approval.render({ ...item, toolCall, strings: view.strings, onDecide: options.onDecide })
      : html`<p part="approval-card" class="approval-card" role="status">
          ${cards === 'failed' ? view.strings.approvalLoadFailed : view.strings.approvalLoading}
          ${cards === 'failed' ? html`<button @click=${options.onRetryToolCards}>${view.strings.retry}</button>` : nothing}
        </p>`;
  switch (view.kind) {
    case 'interrupt':
      return html`<div class="row">${approval(view, undefined)}</div>`;
    case 'tool':
      return html`<div class="row tool-row">${renderToolRow(view, approval)}</div>`;
    case 'failure':
      return html`<div part="run-error" class="error" role="note" dir="auto">
        <p>${formatString(view.strings.runFailed, { message: view.error.message })}</p>
        ${renderErrorReference(view.error.reference, view.strings, view.isReferenceShown)}
        ${view.canRetry ? html`<button part="retry-button" class="primary" @click=${options.onRetry}>${view.strings.retry}</button>` : nothing}
      </div>`;
    case 'reasoning':
      return html`<div class="row" ?data-discarded=${view.isDiscarded}>
        ${renderReasoningPanel({ message: view.message, isOpen: view.isOpen, strings: view.strings, onToggle: options.onToggleReasoning })}
      </div>`;
    case 'user':
      return html`<article part="message user-message" class="message user" data-status=${view.message.status}>
        <span class="visually-hidden">${view.strings.you}</span>
        <div class="message-body" dir="auto">${renderVisibleText(view.message.content, true)}</div>
        ${renderContextChips(view.message, view.strings)}
      </article>`;
    case 'assistant':
      return renderAssistantMessage(view, options);
  }
}

/**
 * A tool call's row: while its approval is open, the approval card is the call's one card (it
 * names the tool and shows the arguments, or a proposal's preview); otherwise the tool card, saying
 * how a refused approval or an applied proposal ended (or what the page's tool runner says about a
 * browser call) instead of the status. A product renderer replaces the tool card.
 */
function renderToolRow(
  view: Extract<RowView, { kind: 'tool' }>,
  approval: (item: ApprovalView, toolCall: SnapshotToolCall) => TemplateResult,
): unknown {
  const open = view.approvals.find((item) => item.interrupt.state === 'open');
  if (open) return approval(open, view.toolCall);
  if (view.renderer) return view.renderer(view.toolCall);
  // A refusal says how it ended, and so does a proposal whose write completed ("Applied").
  const answered = view.approvals.findLast(
    ({ interrupt }) => interrupt.decision !== 'allow' || (interrupt.proposal && view.toolCall.status === 'completed'),
  );
  const note = answered ? describeApprovalOutcome(answered.interrupt, view.strings) : view.note;
  const { toolCall, strings, cards } = view;
  return typeof cards === 'object'
    ? cards.tool.render({ toolCall, strings, note })
    : html`<article part="tool-card" class="tool-card" data-status=${toolCall.status}>
        ${renderVisibleText([toolCall.title ?? toolCall.name, note].filter(Boolean).join(' · '))}
      </article>`;
}

function renderAssistantMessage(
  view: Extract<RowView, { kind: 'assistant' }>,
  options: Pick<MessageListOptions, 'client' | 'feedback'>,
): TemplateResult {
  const { message, strings, getReferences, isDiscarded, isInterrupted, isTurnEnd, actions } = view;
  const isFinished = message.status !== 'streaming';

  // A retried attempt's own note would be wrong; the working row under it says what happens.
  const note = isDiscarded
    ? ''
    : isInterrupted
      ? strings.messageInterrupted
      : message.status === 'cancelled'
        ? strings.messageCancelled
        : message.status === 'error'
          ? strings.messageFailed
          : message.finishReason === 'length'
            ? strings.messageCutAtLength
            : '';
  return html`<article part="message assistant-message" class="message assistant" data-status=${message.status} ?data-discarded=${isDiscarded}>
    <span class="visually-hidden">${strings.assistant}</span>
    <div class="message-body" dir="auto">${markdownBody(message.content, isFinished, strings)}</div>
    ${note ? html`<p class="message-note muted">${note}</p>` : nothing}
    ${
      actions && message.status === 'complete' && isTurnEnd && !isDiscarded
        ? actions.render({ message, strings, ...options })
        : nothing
    }
    ${isFinished && getReferences && actions ? actions.renderSources(getReferences(message), strings) : nothing}
  </article>`;
}

/** The chips under a user message: its page context (title and size), then its references, then its files. */
function renderContextChips(message: SnapshotMessage, strings: AgentChatStrings): TemplateResult | typeof nothing {
  const { contextRefs = [], focus, attachments = [] } = message;
  if (contextRefs.length === 0 && !focus && attachments.length === 0) return nothing;
  const focusText =
    focus &&
    formatString(strings.contextAttached, { title: focus.title ?? strings.contextUntitled, count: focus.chars });
  return html`<ul class="context-refs chips">
    ${focusText ? html`<li class="context-ref chip" data-kind="focus" dir="auto">${renderVisibleText(focusText, true)}</li>` : nothing}
    ${contextRefs.map((ref) => html`<li class="context-ref chip" dir="auto">${renderVisibleText(ref.title ?? ref.ref, true)}</li>`)}
    ${attachments.map((file) => html`<li class="context-ref chip" dir="auto">${renderVisibleText(file.name, true)}</li>`)}
  </ul>`;
}
