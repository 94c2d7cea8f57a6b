import { html, nothing, type TemplateResult } from 'lit';
import type { ClientError } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';

/** What the error box shows and does. */
export interface ErrorBoxView {
  error: ClientError;
  strings: AgentChatStrings;
  /** The reference was just copied: the button says so. */
  isReferenceCopied: boolean;
  onCopyReference: (reference: string) => void;
  onRetry: () => void;
}

/**
 * Renders a failed request or stream (`::part(error)`), placed after the turn it interrupted (a
 * failed run has its own row instead): the message, its copyable reference, and Retry only when
 * trying again can help. It goes once the client moves on.
 */
export function renderErrorBox({
  error,
  strings,
  isReferenceCopied,
  onCopyReference,
  onRetry,
}: ErrorBoxView): TemplateResult {
  return html`<div part="error" class="error" role="alert">
    <p>${strings.errorTitle}</p>
    <p class="error-message" dir="auto">${error.message}</p>
    ${
      error.reference
        ? html`<p class="error-reference">
          ${strings.errorReference}: <code class="reference">${error.reference}</code>
          <button class="copy-button" @click=${() => onCopyReference(error.reference ?? '')}>
            ${isReferenceCopied ? strings.copied : strings.copyReference}
          </button>
        </p>`
        : nothing
    }
    ${error.retryable ? html`<button part="retry-button" class="primary" @click=${onRetry}>${strings.retry}</button>` : nothing}
  </div>`;
}
