import { html, nothing, type TemplateResult } from 'lit';
import type { SnapshotToolCall, ToolCallStatus, ToolEvidence } from '../../core/index.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { renderVisibleText } from '../text/render-visible-text.ts';
import { capText, formatJsonText } from '../text/visible-text.ts';

/** The most characters of a tool result the card shows; longer results carry a visible note. */
export const TOOL_RESULT_MAX_CHARS = 16_000;

/** What `renderToolCard` needs. */
export interface ToolCardOptions {
  toolCall: SnapshotToolCall;
  strings: AgentChatStrings;
  /**
   * Said instead of the status, e.g. how its approval ended ("Expired without an answer"), or where
   * a browser tool runs (`state.toolRunner.notes`, written by the tool runner).
   */
  note?: string | undefined;
}

/** The strings that name a tool call's status. */
type ToolStatusStringKey = Extract<keyof AgentChatStrings, `toolStatus${string}`>;

/** The label of each status; a status added to `ToolCallStatus` fails to compile until it has one. */
const STATUS_LABEL_KEYS: Record<ToolCallStatus, ToolStatusStringKey> = {
  streaming_args: 'toolStatusStreamingArgs',
  pending: 'toolStatusPending',
  awaiting_approval: 'toolStatusAwaitingApproval',
  // A browser call waiting to be claimed; the page's tool runner says more in the card's note.
  awaiting_executor: 'toolStatusPending',
  running: 'toolStatusRunning',
  completed: 'toolStatusCompleted',
  failed: 'toolStatusFailed',
  denied: 'toolStatusDenied',
  cancelled: 'toolStatusCancelled',
  unknown: 'toolStatusUnknown',
  expired: 'toolStatusExpired',
};

/** One line of a call's evidence: the check, its decision and its reason (`pre_tool_use: deny — Not on weekends`). */
function describeEvidence({ source, decision, reason }: ToolEvidence): string {
  return `${source}: ${decision}${reason ? ` — ${reason}` : ''}`;
}

/**
 * Renders one tool call as a one-line card: a status mark, the tool's title (its name only when
 * it has no title) and the status, with the arguments and the result behind the line (a closed
 * `<details>`), as plain pretty-printed text (never Markdown or HTML), the result capped at
 * `TOOL_RESULT_MAX_CHARS` with a visible note, also when the server truncated it, then the call's
 * evidence (each check's decision and reason, one line each). Progress of a running call shows
 * below the line.
 */
export function renderToolCard({ toolCall, strings, note }: ToolCardOptions): TemplateResult {
  const { status, progress, result } = toolCall;
  const argsText = toolCall.args === undefined ? (toolCall.argsText ?? '') : formatJsonText(toolCall.args);
  const shown = result ? capText(formatJsonText(result.content), TOOL_RESULT_MAX_CHARS) : null;
  const fraction = progress?.fraction;
  const hasFraction = typeof fraction === 'number' && fraction >= 0 && fraction <= 1;
  return html`<article part="tool-card" class="tool-card" data-status=${status}>
    <details>
      <summary class="tool-summary">
        <span class="tool-mark" aria-hidden="true"></span>
        <span class="tool-title" dir="auto">${renderVisibleText(toolCall.title ?? toolCall.name)}</span>
        <span class="tool-status" dir="auto">${renderVisibleText(note ?? strings[STATUS_LABEL_KEYS[status]], true)}</span>
      </summary>
      ${
        argsText
          ? html`<p class="tool-label">${strings.toolArguments}</p>
            <pre class="tool-text" tabindex="0">${renderVisibleText(argsText)}</pre>`
          : nothing
      }
      ${
        shown && result
          ? html`<p class="tool-label">${strings.toolResult}</p>
            <pre class="tool-text" tabindex="0">${renderVisibleText(shown.text)}</pre>
            ${shown.isTruncated || result.truncated ? html`<p class="truncation-note">${strings.toolTruncated}</p>` : nothing}`
          : nothing
      }
      ${
        result?.evidence?.length
          ? html`<p class="tool-label">${strings.toolEvidence}</p>
            <pre class="tool-text" tabindex="0">${renderVisibleText(result.evidence.map(describeEvidence).join('\n'))}</pre>`
          : nothing
      }
    </details>
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
  </article>`;
}
