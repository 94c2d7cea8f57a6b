import { html, nothing, type TemplateResult } from 'lit';
import type { SnapshotToolCall, ToolCallStatus } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { renderVisibleText } from '../text/render-visible-text.ts';
import { capText, formatJsonText } from '../text/visible-text.ts';

/** The most characters of a tool result the card shows; longer results carry a visible note. */
export const TOOL_RESULT_MAX_CHARS = 16_000;

/** What `renderToolCard` needs. */
export interface ToolCardOptions {
  toolCall: SnapshotToolCall;
  strings: AgentChatStrings;
}

/** The strings that name a tool call's status. */
type ToolStatusStringKey = Extract<keyof AgentChatStrings, `toolStatus${string}`>;

/** The label of each status; a status added to `ToolCallStatus` fails to compile until it has one. */
const STATUS_LABEL_KEYS: Record<ToolCallStatus, ToolStatusStringKey> = {
  streaming_args: 'toolStatusStreamingArgs',
  pending: 'toolStatusPending',
  awaiting_approval: 'toolStatusAwaitingApproval',
  running: 'toolStatusRunning',
  completed: 'toolStatusCompleted',
  failed: 'toolStatusFailed',
  denied: 'toolStatusDenied',
  cancelled: 'toolStatusCancelled',
  unknown: 'toolStatusUnknown',
};

/**
 * Renders one tool call as a card: title and name, status, progress, arguments and result as
 * plain pretty-printed text (never Markdown or HTML), the result capped at
 * `TOOL_RESULT_MAX_CHARS` with a visible note, also when the server truncated it.
 */
export function renderToolCard({ toolCall, strings }: ToolCardOptions): TemplateResult {
  const { status, progress, result } = toolCall;
  const argsText = toolCall.args === undefined ? (toolCall.argsText ?? '') : formatJsonText(toolCall.args);
  const shown = result ? capText(formatJsonText(result.content), TOOL_RESULT_MAX_CHARS) : null;
  const fraction = progress?.fraction;
  const hasFraction = typeof fraction === 'number' && fraction >= 0 && fraction <= 1;
  return html`<article part="tool-card" class="tool-card" data-status=${status}>
    <header class="tool-header">
      <span class="tool-title" dir="auto">${renderVisibleText(toolCall.title ?? toolCall.name)}</span>
      ${toolCall.title ? html`<code class="tool-name">${renderVisibleText(toolCall.name)}</code>` : nothing}
      <span class="tool-status" data-status=${status}>${strings[STATUS_LABEL_KEYS[status]]}</span>
    </header>
    ${
      progress && status === 'running'
        ? html`<div class="tool-progress">
          ${
            hasFraction
              ? html`<progress max="100" value=${Math.round(fraction * 100)} aria-label=${strings.toolProgress}></progress>
                <span class="muted">${Math.round(fraction * 100)}%</span>`
              : nothing
          }
          ${progress.message ? html`<span class="muted" dir="auto">${renderVisibleText(progress.message)}</span>` : nothing}
        </div>`
        : nothing
    }
    ${
      argsText
        ? html`<details class="tool-section">
          <summary>${strings.toolArguments}</summary>
          <pre class="tool-text" tabindex="0">${renderVisibleText(argsText)}</pre>
        </details>`
        : nothing
    }
    ${
      shown && result
        ? html`<details class="tool-section" open>
          <summary>${strings.toolResult}</summary>
          <pre class="tool-text" tabindex="0">${renderVisibleText(shown.text)}</pre>
          ${shown.isTruncated || result.truncated ? html`<p class="truncation-note">${strings.toolTruncated}</p>` : nothing}
        </details>`
        : nothing
    }
  </article>`;
}
