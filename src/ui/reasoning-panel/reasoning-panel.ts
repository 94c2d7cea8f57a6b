import { html, type TemplateResult } from 'lit';
import type { SnapshotMessage } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { renderVisibleText } from '../text/render-visible-text.ts';

/** What `renderReasoningPanel` needs. */
export interface ReasoningPanelOptions {
  message: SnapshotMessage;
  isOpen: boolean;
  strings: AgentChatStrings;
  onToggle: (messageId: string, isOpen: boolean) => void;
}

/**
 * Renders a reasoning message as a collapsible panel: a toggle button with `aria-expanded` and the
 * reasoning as plain text. Whether it is open is the caller's decision (it streams open and
 * collapses once the answer starts, unless the person toggled it).
 */
export function renderReasoningPanel({ message, isOpen, strings, onToggle }: ReasoningPanelOptions): TemplateResult {
  const bodyId = `reasoning-${message.messageId}`;
  return html`<section part="reasoning" class="reasoning" data-status=${message.status}>
    <button
      class="reasoning-toggle"
      aria-expanded=${isOpen ? 'true' : 'false'}
      aria-controls=${bodyId}
      @click=${() => onToggle(message.messageId, !isOpen)}
    >
      ${message.status === 'streaming' ? strings.reasoningStreaming : strings.reasoning}
    </button>
    <div id=${bodyId} class="reasoning-body" dir="auto" ?hidden=${!isOpen}>${renderVisibleText(message.content)}</div>
  </section>`;
}
