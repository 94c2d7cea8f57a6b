import { html, nothing, type TemplateResult } from 'lit';
import type { ApprovalDecision, SnapshotInterrupt, SnapshotToolCall } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { formatString } from '../i18n/resolve-strings.ts';
import { renderVisibleText } from '../text/render-visible-text.ts';
import { hasHiddenCharacters } from '../text/hidden-characters.ts';
import { formatJsonText } from '../text/visible-text.ts';

/** A value longer than this is folded into a `<details>` (its key and length shown), so padding cannot push the other values away from the buttons. */
export const APPROVAL_VALUE_PREVIEW_CHARS = 400;

/** What `renderApprovalCard` needs. */
export interface ApprovalCardOptions {
  interrupt: SnapshotInterrupt;
  /** The tool call the approval is about, when the interrupt names one. */
  toolCall: SnapshotToolCall | undefined;
  isSubmitting: boolean;
  strings: AgentChatStrings;
  locale: string;
  onDecide: (interruptId: string, decision: ApprovalDecision) => void;
}

/**
 * Renders an approval request: the complete arguments as plain text (hidden and control
 * characters spelled out), each long value folded behind its key and length so padding cannot push
 * the other values away from the buttons, Allow / Deny (disabled while the decision is submitted),
 * the expiry, and once answered the outcome. It is pure state: a reload rebuilds it unchanged.
 */
export function renderApprovalCard(options: ApprovalCardOptions): TemplateResult {
  const { interrupt, toolCall, isSubmitting, strings, onDecide } = options;
  const name = toolCall?.title ?? toolCall?.name ?? interrupt.reason;
  const titleId = `approval-${interrupt.id}`;
  const args = toolCall ? (toolCall.args === undefined ? toolCall.argsText : toolCall.args) : undefined;
  const entries = toArgumentEntries(args);
  const isOpen = interrupt.state === 'open';
  return html`<section part="approval-card" class="approval-card" data-state=${interrupt.state} aria-labelledby=${titleId}>
    <h3 id=${titleId} class="approval-title" dir="auto">${renderVisibleText(formatString(strings.approvalTitle, { name }))}</h3>
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
      isOpen
        ? html`${renderExpiry(interrupt.expiresAt, options.locale, strings)}
          <div class="approval-actions">
            <button class="primary" part="allow-button" ?disabled=${isSubmitting} @click=${() => onDecide(interrupt.id, 'allow')}>
              ${strings.allow}
            </button>
            <button part="deny-button" ?disabled=${isSubmitting} @click=${() => onDecide(interrupt.id, 'deny')}>${strings.deny}</button>
            ${isSubmitting ? html`<span class="muted" role="status">${strings.approvalSubmitting}</span>` : nothing}
          </div>`
        : html`<p class="approval-outcome" data-state=${interrupt.state}>${describeOutcome(interrupt, strings)}</p>`
    }
  </section>`;
}

interface ArgumentEntry {
  key: string | null;
  value: string;
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

function renderEntry(entry: ArgumentEntry, strings: AgentChatStrings): TemplateResult {
  const key = entry.key === null ? nothing : html`<span class="approval-key">${renderVisibleText(entry.key)}:</span> `;
  const value = renderVisibleText(entry.value);
  return entry.value.length > APPROVAL_VALUE_PREVIEW_CHARS
    ? html`<details>
        <summary>${key}${formatString(strings.showFullValue, { count: entry.value.length })}</summary>
        <pre class="approval-value">${value}</pre>
      </details>`
    : html`<pre class="approval-value">${key}${value}</pre>`;
}

function renderExpiry(
  expiresAt: string | undefined,
  locale: string,
  strings: AgentChatStrings,
): TemplateResult | typeof nothing {
  const date = expiresAt ? new Date(expiresAt) : null;
  if (!date || Number.isNaN(date.getTime())) return nothing;
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(date);
  const [before, after = ''] = strings.approvalExpires.split('{time}');
  return html`<p class="approval-expiry muted">${before}<time datetime=${date.toISOString()}>${time}</time>${after}</p>`;
}

function describeOutcome(interrupt: SnapshotInterrupt, strings: AgentChatStrings): string {
  if (interrupt.state === 'expired') return strings.approvalExpired;
  if (interrupt.state === 'cancelled') return strings.approvalCancelled;
  return interrupt.decision === 'allow' ? strings.approvalAllowed : strings.approvalDenied;
}
