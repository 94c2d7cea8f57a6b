import { html, nothing, type TemplateResult } from 'lit';
import type { ClientError } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';

/** What the error box shows and does. */
export interface ErrorBoxView {
  error: ClientError;
  strings: AgentChatStrings;
  /** Shows the reference as a line of its own instead of behind Details (`showErrorReference`). */
  isReferenceShown: boolean | undefined;
  onRetry: () => void;
}

/**
 * Renders a failed request or stream (`::part(error)`), placed after the turn it interrupted (a
 * failed run has its own row instead): the message, its reference behind Details (selected whole at a click, to copy), and
 * Retry only when trying again can help. It goes once the client moves on.
 */
export function renderErrorBox({ error, strings, isReferenceShown, onRetry }: ErrorBoxView): TemplateResult {
  return html`<div part="error" class="error" role="alert">
    <p>${strings.errorTitle}</p>
    <p class="error-message" dir="auto">${error.message}</p>
    ${renderErrorReference(error.reference, strings, isReferenceShown)}
    ${error.retryable ? html`<button part="retry-button" class="primary" @click=${onRetry}>${strings.retry}</button>` : nothing}
  </div>`;
}

/**
 * An error's reference (a request id or a run's correlation id, for support): behind a Details
 * disclosure, as end users rarely need it, or as a line of its own when `isShown` (internal tools).
 */
export function renderErrorReference(
  reference: string | null,
  strings: AgentChatStrings,
  isShown: boolean | undefined,
): unknown {
  if (!reference) return nothing;
  const line = html`<p class="error-reference">
    ${strings.errorReference}: <code class="reference">${reference}</code>
  </p>`;
  return isShown
    ? line
    : html`<details class="error-details"><summary>${strings.errorDetails}</summary>${line}</details>`;
}
