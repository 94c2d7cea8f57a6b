import type { CSSResult, TemplateResult } from 'lit';
import type { SnapshotToolCall, ToolEvidence, Widget } from '../../core/index.ts';
import type { CardTemplating } from '../card-templating.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { withToolCardStrings, type ToolCardStrings } from '../i18n/en-tool-cards.ts';
import { capText, formatJsonText } from '../text/visible-text.ts';
import { createToolCardStyles } from './tool-card.styles.ts';
import { toolStatusLabel } from './tool-status-label.ts';
import { loadWidgets } from '../../parts/widgets/widgets-on-demand.ts';

/** The most characters of a tool result the card shows; longer results carry a visible note. */
export const TOOL_RESULT_MAX_CHARS = 16_000;

/** What {@link ToolCard.render} needs. */
export interface ToolCardOptions {
  toolCall: SnapshotToolCall;
  strings: AgentChatStrings;
  /**
   * Said instead of the status, e.g. how its approval ended ("Expired without an answer"), or where
   * a browser tool runs (`state.toolRunner.notes`, written by the tool runner).
   */
  note?: string | undefined;
}

/** One line of a call's evidence: the check, its decision and its reason (`pre_tool_use: deny — Not on weekends`). */
function describeEvidence({ source, decision, reason }: ToolEvidence): string {
  return `${source}: ${decision}${reason ? ` — ${reason}` : ''}`;
}

/** Renders tool call cards with the widget's templating. */
export interface ToolCard {
  render(options: ToolCardOptions): TemplateResult;
  /** The card's styles, for the widget's shadow root. */
  styles: CSSResult;
}

/** The tool call card, rendering with `templating` (the widget's own Lit, as the approval card does). */
export function createToolCard(templating: CardTemplating): ToolCard {
  const { html, nothing, css, renderVisibleText } = templating;
  /**
   * Renders one tool call as a one-line card: a status mark, the tool's title (its name only when
   * it has no title) and the status, with the arguments and the result behind the line (a closed
   * `<details>`), as plain pretty-printed text (never Markdown or HTML), the result capped at
   * `TOOL_RESULT_MAX_CHARS` with a visible note, also when the server truncated it, then the call's
   * evidence (each check's decision and reason, one line each). Progress of a running call shows
   * below the line.
   */
  function render({ toolCall, strings: widgetStrings, note }: ToolCardOptions): TemplateResult {
    const strings = withToolCardStrings(widgetStrings);
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
          <span class="tool-status" dir="auto">${renderVisibleText(note ?? toolStatusLabel(status, strings), true)}</span>
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
      ${result?.widget ? renderWidget(result.widget, strings) : nothing}
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

  /**
   * A result's widget (docs/widgets.md): `<agent-chat-widget>`, which its file defines once loaded
   * (the element upgrades and renders itself then); until then, and if it fails to load, the
   * card's own line and result stand.
   */
  function renderWidget(widget: Widget, strings: ToolCardStrings): TemplateResult {
    loadWidgets(templating).catch(() => undefined);
    return html`<agent-chat-widget class="tool-widget" .widget=${widget} .strings=${strings}></agent-chat-widget>`;
  }

  return { render, styles: createToolCardStyles(css) };
}
