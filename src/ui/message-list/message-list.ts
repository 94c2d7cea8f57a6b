import { html, nothing, type TemplateResult } from 'lit';
import type {
  ApprovalDecision,
  ClientState,
  ContextRef,
  SnapshotInterrupt,
  SnapshotMessage,
  SnapshotToolCall,
} from '../../core/index.ts';
import { renderApprovalCard } from '../approval-card/approval-card.ts';
import { checkLinkUrl } from '../markdown/check-link-url.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { renderReasoningPanel } from '../reasoning-panel/reasoning-panel.ts';
import { renderToolCard } from '../tool-card/tool-card.ts';
import { buildTranscriptItems, type TranscriptItem } from './build-transcript-items.ts';
import { markdownBody } from './markdown-body.ts';
import { transcriptRow } from './transcript-row.ts';

/** A source card for an assistant message; only http(s) URLs are shown. */
export interface MessageReference {
  title: string;
  url: string;
}

/** Renders a product's own card for one tool call (trusted product code, never model output). */
export type ToolCardRenderer = (toolCall: SnapshotToolCall) => TemplateResult | Node;

/**
 * What `renderMessageList` needs. A row is templated again only when its own inputs change by
 * identity (its message or tool call and approvals, `strings`, `locale`, its renderer,
 * `getReferences`, its submitting and open flags), so a product that changes what a callback
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
  renderers?: Record<string, ToolCardRenderer> | undefined;
  getReferences?: ((message: SnapshotMessage) => MessageReference[]) | undefined;
}

/**
 * Renders the transcript rows in reading order, each keyed by its message, tool call or interrupt
 * id. While a run streams, new rows arrive at the end, so every row keeps its DOM (and each
 * assistant message its one streaming Markdown renderer), and only rows whose inputs changed are
 * templated again (one per streamed delta). When an item lands earlier (a tool call or approval
 * listed last until its message appears), the rows after it are rebuilt rather than reused, so no
 * state carries over to another item.
 */
export function renderMessageList(options: MessageListOptions): TemplateResult {
  const { state } = options;
  const items = buildTranscriptItems(state);
  const pending = state.pendingSend;
  const isPendingShown =
    pending?.status === 'sending' &&
    !state.messages.some((message) => message.clientMessageId === pending.clientMessageId);
  let messageIndex = 0;
  const rows = items.map((item) => {
    const index = item.kind === 'message' ? messageIndex++ : -1;
    return transcriptRow(item.key, rowInputs(item, index, options), () => renderItem(item, index, options));
  });
  return html`${rows}
    ${
      isPendingShown
        ? html`<article part="message user-message" class="message user" data-status="sending">
          <div class="message-body" dir="auto">${pending.text}</div>
          <p class="message-note muted">${options.strings.sending}</p>
        </article>`
        : nothing
    }`;
}

/** Everything a row's template reads, by identity or as a derived primitive. */
function rowInputs(item: TranscriptItem, index: number, options: MessageListOptions): unknown[] {
  const { strings, locale, state } = options;
  if (item.kind === 'message') {
    const { message } = item;
    if (message.role === 'reasoning') return [message, strings, options.isReasoningOpen(message, index)];
    return [message, strings, message.role === 'assistant' ? options.getReferences : undefined];
  }
  if (item.kind === 'interrupt') return [item.interrupt, strings, locale, isSubmitting(state, item.interrupt)];
  return [
    item.toolCall,
    strings,
    locale,
    options.renderers?.[item.toolCall.name],
    ...item.interrupts.flatMap((interrupt) => [interrupt, isSubmitting(state, interrupt)]),
  ];
}

function isSubmitting(state: ClientState, interrupt: SnapshotInterrupt): boolean {
  return state.submittingInterruptIds.includes(interrupt.id);
}

function renderItem(item: TranscriptItem, index: number, options: MessageListOptions): TemplateResult {
  const { state, strings, locale, onDecide } = options;
  if (item.kind === 'message') return renderMessage(item.message, index, options);
  const approval = (interrupt: SnapshotInterrupt, toolCall: SnapshotToolCall | undefined) =>
    renderApprovalCard({
      interrupt,
      toolCall,
      isSubmitting: isSubmitting(state, interrupt),
      strings,
      locale,
      onDecide,
    });
  if (item.kind === 'interrupt') return html`<div class="row">${approval(item.interrupt, undefined)}</div>`;
  const custom = options.renderers?.[item.toolCall.name];
  return html`<div class="row tool-row">
    ${custom ? custom(item.toolCall) : renderToolCard({ toolCall: item.toolCall, strings })}
    ${item.interrupts.map((interrupt) => approval(interrupt, item.toolCall))}
  </div>`;
}

function renderMessage(message: SnapshotMessage, index: number, options: MessageListOptions): TemplateResult {
  const { strings } = options;
  if (message.role === 'reasoning') {
    return html`<div class="row">
      ${renderReasoningPanel({ message, isOpen: options.isReasoningOpen(message, index), strings, onToggle: options.onToggleReasoning })}
    </div>`;
  }
  if (message.role === 'user') {
    return html`<article part="message user-message" class="message user" data-status=${message.status}>
      <span class="visually-hidden">${strings.you}</span>
      <div class="message-body" dir="auto">${message.content}</div>
      ${renderContextRefs(message.contextRefs)}
    </article>`;
  }
  const isFinished = message.status !== 'streaming';
  const references = isFinished && options.getReferences ? safeReferences(options.getReferences(message)) : [];
  const note =
    message.status === 'cancelled'
      ? strings.messageCancelled
      : message.status === 'error'
        ? strings.messageFailed
        : message.finishReason === 'length'
          ? strings.messageCutAtLength
          : '';
  return html`<article part="message assistant-message" class="message assistant" data-status=${message.status}>
    <span class="visually-hidden">${strings.assistant}</span>
    <div class="message-body" dir="auto">${markdownBody(message.content, isFinished, {
      copyCode: strings.copyCode,
      copied: strings.copied,
      image: strings.markdownImage,
      truncated: strings.markdownTruncated,
    })}</div>
    ${note ? html`<p class="message-note muted">${note}</p>` : nothing}
    ${
      references.length > 0
        ? html`<nav class="references chips" aria-label=${strings.sources}>
          ${references.map(
            (
              reference,
            ) => html`<a class="reference-card chip" href=${reference.url} target="_blank" rel="noopener noreferrer">
              <span dir="auto">${reference.title}</span> <span class="muted">${reference.host}</span>
            </a>`,
          )}
        </nav>`
        : nothing
    }
  </article>`;
}

function renderContextRefs(refs: ContextRef[] | undefined): TemplateResult | typeof nothing {
  if (!refs || refs.length === 0) return nothing;
  return html`<ul class="context-refs chips">
    ${refs.map((ref) => html`<li class="context-ref chip" dir="auto">${ref.title ?? ref.ref}</li>`)}
  </ul>`;
}

/** Keeps only references to absolute http(s) URLs (the Markdown link check, which gives those a host), with the host shown beside the title. */
function safeReferences(references: MessageReference[]): Array<MessageReference & { host: string }> {
  return references.flatMap((reference) => {
    const checked = checkLinkUrl(reference.url);
    return checked?.host ? [{ title: reference.title, url: checked.href, host: checked.host }] : [];
  });
}
