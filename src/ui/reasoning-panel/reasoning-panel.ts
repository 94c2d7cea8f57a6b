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
 * Renders a reasoning message as a collapsible panel: a native `<details>` whose summary is the
 * label and whose body is the reasoning as plain text. Whether it is open is the caller's decision
 * (it streams open and collapses once the answer starts, unless the person toggled it), so a click
 * on the summary (or Enter/Space on it) reports the wish instead of toggling natively.
 */
export function renderReasoningPanel({ message, isOpen, strings, onToggle }: ReasoningPanelOptions): TemplateResult {
  const toggle = (event: Event): void => {
    event.preventDefault();
    onToggle(message.messageId, !isOpen);
  };
  return html`<details part="reasoning" class="reasoning" data-status=${message.status} ?open=${isOpen}>
    <summary @click=${toggle}>${message.status === 'streaming' ? strings.reasoningStreaming : strings.reasoning}</summary>
    <div class="reasoning-body" dir="auto">${renderVisibleText(message.content, true)}</div>
  </details>`;
}
