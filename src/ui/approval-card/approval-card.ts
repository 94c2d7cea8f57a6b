import type { CSSResult, TemplateResult } from 'lit';
import type { CardTemplating } from '../card-templating.ts';
import type { ApprovalDecision, Proposal, SnapshotInterrupt, SnapshotToolCall } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { withToolCardStrings, type ToolCardStrings } from '../i18n/en-tool-cards.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import { createApprovalCardStyles } from './approval-card.styles.ts';
import { describeApprovalOutcome } from './describe-approval-outcome.ts';
import { hasHiddenCharacters } from '../text/hidden-characters.ts';
import { formatJsonText } from '../text/visible-text.ts';

/** A value longer than this is folded into a `<details>` (its length shown beside its key), so padding cannot push the other values away from the buttons. */
export const APPROVAL_VALUE_PREVIEW_CHARS = 400;

/** What {@link ApprovalCard.render} needs. */
export interface ApprovalCardOptions {
  interrupt: SnapshotInterrupt;
  /** The tool call the approval is about, when the interrupt names one. */
  toolCall: SnapshotToolCall | undefined;
  isSubmitting: boolean;
  /** When it expires, relative to now ("in 14 minutes", from {@link formatExpiresIn}); empty when it has no expiry. */
  expiresIn: string;
  strings: AgentChatStrings;
  onDecide: (interruptId: string, decision: ApprovalDecision) => void;
}

/** Renders approval cards (and proposal cards) with the widget's templating. */
export interface ApprovalCard {
  render(options: ApprovalCardOptions): TemplateResult;
  /** The card's styles, for the widget's shadow root. */
  styles: CSSResult;
}

/** The approval card, rendering with `templating` (the widget's own Lit). */
export function createApprovalCard({ html, nothing, css, renderVisibleText }: CardTemplating): ApprovalCard {
  /**
   * Renders an approval request as the one card of its tool call, in the end user's words: the
   * question as its heading (the tool's `metadata.summary`, else "Approval needed: {title}" with the
   * server's `message`), what allowing it does (`metadata.consequence`), the arguments as a
   * key–value list of readable values (hidden and control characters spelled out; each long value
   * folded behind its length so padding cannot push the others away from the buttons), a Details
   * disclosure with the tool's name and the exact arguments as JSON (what the digest binds, one
   * click away), Allow / Deny (disabled while the decision is submitted; Allow in the danger style
   * when the server flags the call `metadata.destructive`), and when it expires. A proposal
   * (`interrupt.proposal`, docs/protocol.md §11.1) is the same card with its preview instead of the
   * arguments (each field as `name: before → after`, each diff line marked `+`, `-` or blank),
   * the write's tool and arguments behind Details, and Apply / Dismiss. Once answered it collapses
   * to its heading and outcome. It is pure state: a reload rebuilds it unchanged. Every text is
   * rendered as text, the server's too.
   */
  function render(options: ApprovalCardOptions): TemplateResult {
    const { interrupt, toolCall, isSubmitting, onDecide } = options;
    const strings = withToolCardStrings(options.strings);
    const { proposal } = interrupt;
    const name = toolCall?.title ?? toolCall?.name ?? interrupt.reason;
    const summary = textOf(interrupt.metadata?.summary);
    const consequence = textOf(interrupt.metadata?.consequence);
    const titleId = `approval-${interrupt.id}`;
    const heading = summary ?? formatString(proposal ? strings.proposalTitle : strings.approvalTitle, { name });
    const title = html`<h3 id=${titleId} class="approval-title" dir="auto">${renderVisibleText(heading)}</h3>`;
    if (interrupt.state !== 'open') {
      return html`<section part="approval-card" class="approval-card" data-state=${interrupt.state} aria-labelledby=${titleId}>
        ${title}<p class="approval-outcome">${describeApprovalOutcome(interrupt, strings)}</p>
      </section>`;
    }
    const args = proposal
      ? proposal.apply.arguments
      : toolCall
        ? toolCall.args === undefined
          ? toolCall.argsText
          : toolCall.args
        : undefined;
    const entries = proposal ? toPreviewEntries(proposal) : toArgumentEntries(args);
    const isDestructive = interrupt.metadata?.destructive === true;
    const message = interrupt.message === summary ? undefined : interrupt.message;
    const json =
      args === undefined || args === '' ? '' : typeof args === 'string' ? formatJsonText(args) : toJson(args);
    // The exact JSON too: a proposal's preview need not show every argument of its write.
    const hasHidden = [
      summary,
      consequence,
      message,
      json,
      ...entries.flatMap((entry) => [entry.key, entry.value]),
    ].some((text) => typeof text === 'string' && hasHiddenCharacters(text));
    return html`<section part="approval-card" class="approval-card" data-state="open" ?data-destructive=${isDestructive} aria-labelledby=${titleId}>
      ${title}
      ${message ? html`<p class="approval-message" dir="auto">${renderVisibleText(message)}</p>` : nothing}
      ${consequence ? html`<p class="approval-consequence" dir="auto">${renderVisibleText(consequence)}</p>` : nothing}
      ${
        entries.length > 0
          ? html`<div class="approval-args" tabindex="0" role="group" aria-label=${strings.toolArguments}>
            ${proposal || entries[0]?.key === null ? entries.map((entry) => renderLine(entry, strings)) : html`<dl>${entries.map((entry) => renderArgument(entry, strings))}</dl>`}
          </div>`
          : nothing
      }
      ${hasHidden ? html`<p class="approval-warning">${strings.hiddenCharacters}</p>` : nothing}
      ${renderDetails(proposal?.apply.tool ?? toolCall?.name, json, strings)}
      ${
        options.expiresIn
          ? html`<p class="approval-expiry muted">
            <time datetime=${interrupt.expiresAt ?? nothing}>${formatString(strings.approvalExpires, { time: options.expiresIn })}</time>
          </p>`
          : nothing
      }
      <div class="approval-actions">
        <button class=${isDestructive ? 'danger' : 'primary'} part="allow-button" ?disabled=${isSubmitting} @click=${() => onDecide(interrupt.id, 'allow')}>
          ${proposal ? strings.apply : strings.allow}
        </button>
        <button part="deny-button" ?disabled=${isSubmitting} @click=${() => onDecide(interrupt.id, 'deny')}>${proposal ? strings.dismiss : strings.deny}</button>
        ${isSubmitting ? html`<span class="muted" role="status">${strings.approvalSubmitting}</span>` : nothing}
      </div>
    </section>`;
  }

  /** One argument of the key–value list: its key as the label, its readable value (a long one folded). */
  function renderArgument(entry: ArgumentEntry, strings: ToolCardStrings): TemplateResult {
    return html`<div class="approval-arg">
      <dt dir="auto">${renderVisibleText(entry.key ?? '')}</dt>
      <dd dir="auto">${renderValue(entry, strings, nothing)}</dd>
    </div>`;
  }

  /** A preview line or a value without a key, as preformatted text (`key: value` when it has a key). */
  function renderLine(entry: ArgumentEntry, strings: ToolCardStrings): TemplateResult {
    const key =
      entry.key === null ? nothing : html`<span class="approval-key">${renderVisibleText(entry.key)}:</span> `;
    return renderValue(entry, strings, key, true);
  }

  function renderValue(
    entry: ArgumentEntry,
    strings: ToolCardStrings,
    key: TemplateResult | typeof nothing,
    isPre = false,
  ): TemplateResult {
    const value = renderVisibleText(entry.value);
    if (entry.value.length > APPROVAL_VALUE_PREVIEW_CHARS) {
      return html`<details>
        <summary>${key}${formatString(strings.showFullValue, { count: entry.value.length })}</summary>
        <pre class="approval-value">${value}</pre>
      </details>`;
    }
    return isPre
      ? html`<pre class="approval-value" data-change=${entry.change ?? nothing}>${key}${value}</pre>`
      : html`<span class="approval-value">${value}</span>`;
  }

  /** The Details disclosure: the tool's name and `json`, the exact arguments the digest binds. */
  function renderDetails(
    tool: string | undefined,
    json: string,
    strings: ToolCardStrings,
  ): TemplateResult | typeof nothing {
    if (tool === undefined && json === '') return nothing;
    return html`<details class="approval-details">
      <summary>${strings.approvalDetails}</summary>
      ${
        tool === undefined
          ? nothing
          : html`<p class="approval-tool">${strings.approvalTool}: <code>${renderVisibleText(tool)}</code></p>`
      }
      ${json ? html`<pre class="approval-json" tabindex="0" role="group" aria-label=${strings.toolArguments}>${renderVisibleText(json)}</pre>` : nothing}
    </details>`;
  }

  return { render, styles: createApprovalCardStyles(css) };
}

interface ArgumentEntry {
  key: string | null;
  value: string;
  /** A diff line's change (styled through `data-change`; its mark is in `value`). */
  change?: string;
}

/** A proposal's preview as entries: each field as `name: before → after`, then each diff line marked `+`, `-` or blank (so a change reads without its colour). */
function toPreviewEntries(proposal: Proposal): ArgumentEntry[] {
  return [
    ...(proposal.fields ?? []).map((field) => ({
      key: field.name,
      value: field.before === undefined ? field.after : `${field.before} → ${field.after}`,
    })),
    ...(proposal.diff ?? []).map((line) => ({
      key: null,
      value: (line.change === 'added' ? '+ ' : line.change === 'removed' ? '- ' : '  ') + line.text,
      change: line.change,
    })),
  ];
}

function toArgumentEntries(args: unknown): ArgumentEntry[] {
  if (args === undefined || args === '') return [];
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
    return Object.entries(args).map(([key, value]) => ({ key: readable(key), value: readable(value) }));
  }
  return [{ key: null, value: typeof args === 'string' ? formatJsonText(args) : toJson(args) }];
}

/**
 * One argument's value as a reader reads it: a string as it is (as JSON when it is blank, so it
 * never reads as nothing), a number, boolean or null plainly, an object or array as compact JSON.
 * `"true"` and `true` read the same here; Details has the exact JSON.
 */
function readable(value: unknown): string {
  if (typeof value === 'string') return value.trim() === '' ? JSON.stringify(value) : value;
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Exact JSON of one value: strings keep their quotes, so `"true"` never reads as `true`. */
function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** `value` when it is a non-blank string (a server text in `metadata`), else undefined. */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
