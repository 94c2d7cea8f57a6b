import type { css, CSSResult, html, nothing, TemplateResult } from 'lit';
import type { ApprovalDecision, Proposal, SnapshotInterrupt, SnapshotToolCall } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import type { renderVisibleText } from '../text/render-visible-text.ts';
import { createApprovalCardStyles } from './approval-card.styles.ts';
import { describeApprovalOutcome } from './describe-approval-outcome.ts';
import { hasHiddenCharacters } from '../text/hidden-characters.ts';
import { formatJsonText } from '../text/visible-text.ts';

/** A value longer than this is folded into a `<details>` (its key and length shown), so padding cannot push the other values away from the buttons. */
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

/**
 * What the card renders with: the widget's own Lit `html`, `nothing` and `css` and its
 * hidden-character renderer, handed in so the card's file (a sibling file of the script-tag build, docs/embedding.md
 * "Sibling files") carries no second copy of Lit and creates no Trusted Types policy of its own.
 */
export interface ApprovalCardTemplating {
  html: typeof html;
  nothing: typeof nothing;
  css: typeof css;
  renderVisibleText: typeof renderVisibleText;
}

/** Renders approval cards (and proposal cards) with the widget's templating. */
export interface ApprovalCard {
  render(options: ApprovalCardOptions): TemplateResult;
  /** The card's styles, for the widget's shadow root. */
  styles: CSSResult;
}

/** The approval card, rendering with `templating` (the widget's own Lit). */
export function createApprovalCard({ html, nothing, css, renderVisibleText }: ApprovalCardTemplating): ApprovalCard {
  /**
   * Renders an approval request as the one card of its tool call: the question, the complete
   * arguments as plain text (hidden and control characters spelled out), each long value folded
   * behind its key and length so padding cannot push the other values away from the buttons, Allow /
   * Deny (disabled while the decision is submitted; Allow marked as dangerous when the server flags
   * the call `metadata.destructive`), and when it expires. A proposal (`interrupt.proposal`,
   * docs/protocol.md §11.1) is the same card with its preview instead of the arguments (each field
   * as `name: before → after`, each diff line marked `+`, `-` or blank) and Apply / Dismiss. Once
   * answered it collapses to its title and outcome. It is pure state: a reload rebuilds it unchanged.
   */
  function render(options: ApprovalCardOptions): TemplateResult {
    const { interrupt, toolCall, isSubmitting, strings, onDecide } = options;
    const { proposal } = interrupt;
    const name = toolCall?.title ?? toolCall?.name ?? interrupt.reason;
    const titleId = `approval-${interrupt.id}`;
    const title = html`<h3 id=${titleId} class="approval-title" dir="auto">${renderVisibleText(formatString(proposal ? strings.proposalTitle : strings.approvalTitle, { name }))}</h3>`;
    if (interrupt.state !== 'open') {
      return html`<section part="approval-card" class="approval-card" data-state=${interrupt.state} aria-labelledby=${titleId}>
        ${title}<p class="approval-outcome">${describeApprovalOutcome(interrupt, strings)}</p>
      </section>`;
    }
    const args = toolCall ? (toolCall.args === undefined ? toolCall.argsText : toolCall.args) : undefined;
    const entries = proposal ? toPreviewEntries(proposal) : toArgumentEntries(args);
    const isDestructive = interrupt.metadata?.destructive === true;
    return html`<section part="approval-card" class="approval-card" data-state="open" ?data-destructive=${isDestructive} aria-labelledby=${titleId}>
      ${title}
      ${interrupt.message ? html`<p class="approval-message" dir="auto">${renderVisibleText(interrupt.message)}</p>` : nothing}
      ${
        entries.length > 0
          ? html`<div class="approval-args" tabindex="0" role="group" aria-label=${strings.toolArguments}>
            ${entries.map((entry) => renderEntry(entry, strings))}
          </div>`
          : nothing
      }
      ${
        entries.some((entry) => hasHiddenCharacters(entry.key ?? '') || hasHiddenCharacters(entry.value))
          ? html`<p class="approval-warning">${strings.hiddenCharacters}</p>`
          : nothing
      }
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

  function renderEntry(entry: ArgumentEntry, strings: AgentChatStrings): TemplateResult {
    const key =
      entry.key === null ? nothing : html`<span class="approval-key">${renderVisibleText(entry.key)}:</span> `;
    const value = renderVisibleText(entry.value);
    return entry.value.length > APPROVAL_VALUE_PREVIEW_CHARS
      ? html`<details>
          <summary>${key}${formatString(strings.showFullValue, { count: entry.value.length })}</summary>
          <pre class="approval-value">${value}</pre>
        </details>`
      : html`<pre class="approval-value" data-change=${entry.change ?? nothing}>${key}${value}</pre>`;
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
    return Object.entries(args).map(([key, value]) => ({ key: JSON.stringify(key), value: toJson(value) }));
  }
  return [{ key: null, value: typeof args === 'string' ? formatJsonText(args) : toJson(args) }];
}

/** Exact JSON of one value: strings keep their quotes, so `"true"` never reads as `true`. */
function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}
