import type { TemplateResult } from 'lit';
import type {
  AgentClientHandle,
  Widget,
  WidgetField,
  WidgetFormNode,
  WidgetNode,
  WidgetActionResponse,
  WidgetValues,
} from '../../core/index.ts';
import { WIDGET_ICON_NAMES, WIDGET_LIMITS } from '../../core/index.ts';
import type { CardTemplating } from '../card-templating.ts';
import type { AgentChatStrings } from '../i18n/en.ts';
import { checkWidgetImage } from './check-widget-image.ts';
import { WIDGET_ICON_PATHS } from './widget-icons.ts';
import { EN_WIDGET_STRINGS } from '../i18n/en-widgets.ts';

/** The tag of the widget element (a tool card shows one per widget). */
export const WIDGET_TAG = 'agent-chat-widget';

/** The host page's `<agent-chat>`, whose client sends the actions (its public `client` property). */
interface ChatHost extends HTMLElement {
  client?: AgentClientHandle | null;
}

type ActionState = { kind: 'idle' } | { kind: 'sending' } | { kind: 'failed'; message: string };

/**
 * Defines `<agent-chat-widget>` once: a plain custom element (no Lit of its own) that renders its
 * `widget` with the widget's Lit from `templating`, into its own light DOM (so the card styles of
 * `<agent-chat>`'s shadow root apply). Only catalogue nodes become elements; text is text, Markdown
 * goes through the answers' renderer (`markdownBody`), images come only from the bootstrap's
 * allowed origins, and nothing in a widget sets HTML, styles, handlers or script. A node that is
 * unknown or off the catalogue's shape becomes one "can't show this" row. A button or a form
 * submit sends the action through the host's client, then follows the run that records it.
 */
export function defineWidgetElement(templating: CardTemplating): void {
  if (customElements.get(WIDGET_TAG)) return;
  const { html, nothing, render, markdownBody } = templating;

  class WidgetElement extends HTMLElement {
    #widget: Widget | undefined;
    #strings: AgentChatStrings | undefined;
    #action: ActionState = { kind: 'idle' };
    /** Makes this element's control ids unique in the shadow root (an updated widget shows again below). */
    #uid = `w${(elementCount += 1)}`;

    /** The widget to show (a tool call's `result.widget`). */
    get widget(): Widget | undefined {
      return this.#widget;
    }
    set widget(widget: Widget | undefined) {
      if (widget?.digest !== this.#widget?.digest) this.#action = { kind: 'idle' };
      this.#widget = widget;
      this.#update();
    }

    /** The words the element says itself, in the widget's language (English by default). */
    #text(): typeof EN_WIDGET_STRINGS {
      return { ...EN_WIDGET_STRINGS, ...this.#strings };
    }

    /** The widget's strings (the Markdown renderer's labels and the element's own words). */
    get strings(): AgentChatStrings | undefined {
      return this.#strings;
    }
    set strings(strings: AgentChatStrings | undefined) {
      this.#strings = strings;
      this.#update();
    }

    connectedCallback(): void {
      // Properties Lit set before this element was defined are own properties: take them over.
      for (const name of ['widget', 'strings'] as const) {
        if (Object.prototype.hasOwnProperty.call(this, name)) {
          const value = (this as Record<string, unknown>)[name];
          delete (this as Record<string, unknown>)[name];
          (this as Record<string, unknown>)[name] = value;
        }
      }
      this.#update();
    }

    #update(): void {
      if (!this.isConnected || this.#widget === undefined) return;
      if (this.dataset['rendered'] === undefined) {
        this.replaceChildren();
        this.dataset['rendered'] = '';
      }
      render(this.#renderWidget(this.#widget), this);
    }

    #host(): ChatHost | null {
      const root = this.getRootNode();
      return root instanceof ShadowRoot ? (root.host as ChatHost) : null;
    }

    #renderWidget(widget: Widget): TemplateResult {
      // A tree past the limits is refused whole, before any of it renders.
      if (!isWithinLimits(widget.root)) return html`<div class="widget">${this.#unsupported()}</div>`;
      const counter = { nodes: 0 };
      const state = this.#action;
      return html`<div class="widget" dir="auto">
        ${this.#node(widget.root, 1, counter)}
        ${state.kind === 'failed' ? html`<p class="widget-note" role="alert">${state.message}</p>` : nothing}
      </div>`;
    }

    #unsupported(): TemplateResult {
      return html`<p class="widget-unsupported">${this.#text().widgetUnsupported}</p>`;
    }

    #node(node: unknown, depth: number, counter: { nodes: number }): unknown {
      counter.nodes += 1;
      if (depth > WIDGET_LIMITS.maxDepth || counter.nodes > WIDGET_LIMITS.maxNodes) return this.#unsupported();
      if (typeof node !== 'object' || node === null) return this.#unsupported();
      const typed = node as WidgetNode;
      try {
        return this.#known(typed, depth, counter) ?? this.#unsupported();
      } catch {
        return this.#unsupported();
      }
    }

    #children(children: unknown, depth: number, counter: { nodes: number }): unknown {
      if (!Array.isArray(children) || children.length > WIDGET_LIMITS.maxItems) return this.#unsupported();
      return children.map((child) => this.#node(child, depth + 1, counter));
    }

    /** A node of the catalogue, or undefined when it is off its shape. */
    #known(node: WidgetNode, depth: number, counter: { nodes: number }): unknown {
      switch (node.type) {
        case 'card':
        case 'row':
        case 'column':
        case 'box':
          return html`<div class="widget-${node.type}" data-gap=${text(node.gap) ?? 'medium'} data-align=${text(node.align) ?? 'start'}>
            ${this.#children(node.children, depth, counter)}
          </div>`;
        case 'title':
          return isText(node.text)
            ? html`<h3 class="widget-title" data-tone=${text(node.tone) ?? 'neutral'}>${node.text}</h3>`
            : undefined;
        case 'text':
        case 'caption':
          return isText(node.text)
            ? html`<p class="widget-${node.type}" data-tone=${text(node.tone) ?? 'neutral'}>${node.text}</p>`
            : undefined;
        case 'markdown':
          return isText(node.text, WIDGET_LIMITS.maxMarkdownChars) && this.#strings
            ? html`<div class="widget-markdown message-body">${markdownBody(node.text, true, this.#strings)}</div>`
            : undefined;
        case 'badge':
          return isText(node.text)
            ? html`<span class="widget-badge" data-tone=${text(node.tone) ?? 'neutral'}>${node.text}</span>`
            : undefined;
        case 'divider':
          return html`<hr class="widget-divider" />`;
        case 'icon': {
          if (!(WIDGET_ICON_NAMES as readonly string[]).includes(node.name)) return undefined;
          const label = isText(node.label) ? node.label : undefined;
          return html`<svg class="widget-icon" viewBox="0 0 24 24" role=${label ? 'img' : 'presentation'} aria-hidden=${label ? 'false' : 'true'} aria-label=${label ?? nothing}>
            <path d=${WIDGET_ICON_PATHS[node.name]}></path>
          </svg>`;
        }
        case 'image': {
          const origins = this.#host()?.client?.getState().bootstrap?.capabilities.widgets?.imageOrigins ?? [];
          const src = checkWidgetImage(node.src, origins);
          if (src === undefined || !isText(node.alt)) return undefined;
          return html`<img class="widget-image" src=${src} alt=${node.alt} referrerpolicy="no-referrer" loading="lazy" />`;
        }
        case 'list': {
          if (!Array.isArray(node.items) || node.items.length > WIDGET_LIMITS.maxItems) return undefined;
          const items = node.items.map((item) =>
            item?.type === 'list_item'
              ? html`<li>${this.#children(item.children, depth + 1, counter)}</li>`
              : html`<li>${this.#unsupported()}</li>`,
          );
          return node.ordered === true
            ? html`<ol class="widget-list">${items}</ol>`
            : html`<ul class="widget-list">${items}</ul>`;
        }
        case 'key_value':
          if (!Array.isArray(node.items) || node.items.length > WIDGET_LIMITS.maxItems) return undefined;
          if (!node.items.every((item) => isText(item?.key) && isText(item?.value))) return undefined;
          return html`<dl class="widget-key-value">
            ${node.items.map((item) => html`<div><dt>${item.key}</dt><dd>${item.value}</dd></div>`)}
          </dl>`;
        case 'table':
          return this.#table(node);
        case 'button':
          if (!isText(node.label) || !isText(node.action, WIDGET_LIMITS.maxNameChars)) return undefined;
          return html`<button
            type="button"
            class="widget-button"
            data-style=${text(node.style) ?? 'secondary'}
            ?disabled=${node.disabled === true || this.#action.kind === 'sending'}
            @click=${() => void this.#send(node.action, undefined)}
          >
            ${node.label}
          </button>`;
        case 'form':
          return this.#form(node);
        default:
          return undefined;
      }
    }

    #table(node: Extract<WidgetNode, { type: 'table' }>): unknown {
      const { columns, rows } = node;
      if (!Array.isArray(columns) || !Array.isArray(rows)) return undefined;
      if (
        columns.length === 0 ||
        columns.length > WIDGET_LIMITS.maxTableColumns ||
        rows.length > WIDGET_LIMITS.maxTableRows
      )
        return undefined;
      if (!columns.every((cell) => isText(cell))) return undefined;
      if (
        !rows.every((row) => Array.isArray(row) && row.length === columns.length && row.every((cell) => isText(cell)))
      )
        return undefined;
      return html`<div class="widget-table-scroll" tabindex="0" role="group" aria-label=${node.caption ?? columns.join(', ')}>
        <table class="widget-table">
          ${isText(node.caption) ? html`<caption>${node.caption}</caption>` : nothing}
          <thead><tr>${columns.map((cell) => html`<th scope="col">${cell}</th>`)}</tr></thead>
          <tbody>${rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody>
        </table>
      </div>`;
    }

    #form(node: WidgetFormNode): unknown {
      if (!isText(node.submitLabel) || !Array.isArray(node.fields) || node.fields.length > WIDGET_LIMITS.maxFields)
        return undefined;
      const isSubmitted = node.submitted === true;
      const formId = `${this.#uid}-${node.action}`;
      const submit = (event: SubmitEvent): void => {
        event.preventDefault();
        const form = event.currentTarget as HTMLFormElement;
        if (!form.reportValidity()) return;
        void this.#send(node.action, readValues(form, node));
      };
      return html`<form class="widget-form" @submit=${submit} ?inert=${isSubmitted} aria-describedby=${isSubmitted ? `${formId}-state` : nothing}>
        ${node.fields.map((field, index) => this.#field(field, `${formId}-${index}`, isSubmitted))}
        ${
          isSubmitted
            ? html`<p class="widget-submitted" id="${formId}-state">${this.#text().widgetSubmitted}</p>`
            : html`<button type="submit" class="widget-button" data-style="primary" ?disabled=${this.#action.kind === 'sending'}>
                ${this.#action.kind === 'sending' ? this.#text().widgetSending : node.submitLabel}
              </button>`
        }
      </form>`;
    }

    #field(field: WidgetField, id: string, isSubmitted: boolean): unknown {
      if (!isText(field?.label) || !isText(field?.name, WIDGET_LIMITS.maxNameChars)) return this.#unsupported();
      switch (field.type) {
        case 'text':
        case 'date':
          return html`<div class="widget-field">
            <label for=${id}>${field.label}</label>
            <input id=${id} name=${field.name} type=${field.type} .value=${text(field.value) ?? ''}
              placeholder=${text(field.placeholder) ?? nothing} ?required=${field.required === true} ?readonly=${isSubmitted}
              maxlength=${WIDGET_LIMITS.maxTextChars} />
          </div>`;
        case 'textarea':
          return html`<div class="widget-field">
            <label for=${id}>${field.label}</label>
            <textarea id=${id} name=${field.name} rows="3" .value=${text(field.value) ?? ''}
              placeholder=${text(field.placeholder) ?? nothing} ?required=${field.required === true} ?readonly=${isSubmitted}
              maxlength=${WIDGET_LIMITS.maxTextChars}></textarea>
          </div>`;
        case 'select':
          if (!validOptions(field.options)) return this.#unsupported();
          return html`<div class="widget-field">
            <label for=${id}>${field.label}</label>
            <select id=${id} name=${field.name} ?required=${field.required === true} ?disabled=${isSubmitted}>
              ${field.options.map((option) => html`<option value=${option.value} ?selected=${option.value === field.value}>${option.label}</option>`)}
            </select>
          </div>`;
        case 'radio':
          if (!validOptions(field.options)) return this.#unsupported();
          return html`<fieldset class="widget-field widget-radios" ?disabled=${isSubmitted}>
            <legend>${field.label}</legend>
            ${field.options.map(
              (option, index) => html`<label class="widget-choice" for="${id}-${index}">
                <input type="radio" id="${id}-${index}" name=${field.name} value=${option.value}
                  .checked=${option.value === field.value} ?required=${field.required === true} />
                ${option.label}
              </label>`,
            )}
          </fieldset>`;
        case 'checkbox':
          return html`<label class="widget-field widget-choice" for=${id}>
            <input type="checkbox" id=${id} name=${field.name} .checked=${field.value === true} ?disabled=${isSubmitted} />
            ${field.label}
          </label>`;
        default:
          return this.#unsupported();
      }
    }

    async #send(action: string, values: WidgetValues | undefined): Promise<void> {
      const widget = this.#widget;
      const client = this.#host()?.client;
      // Any run of the session names it: the one the client follows, else (a restored conversation) the latest shown.
      const state = client?.getState();
      const runId = state?.run?.runId ?? state?.messages.findLast((message) => message.runId !== undefined)?.runId;
      if (widget === undefined || !client || runId === undefined || this.#action.kind === 'sending') return;
      this.#action = { kind: 'sending' };
      this.#update();
      try {
        const { body } = await client.request<WidgetActionResponse>({
          method: 'POST',
          path: `/runs/${encodeURIComponent(runId)}/widgets/${encodeURIComponent(widget.widgetId)}/actions`,
          body: JSON.stringify({ action, digest: widget.digest, ...(values === undefined ? {} : { values }) }),
          attempts: 3,
        });
        this.#action = { kind: 'idle' };
        if (body?.runId) await client.connect(body.runId);
      } catch (error) {
        const status = (error as { status?: number } | null)?.status;
        this.#action = {
          kind: 'failed',
          message: status === 412 ? this.#text().widgetStale : this.#text().widgetFailed,
        };
      }
      this.#update();
    }
  }

  customElements.define(WIDGET_TAG, WidgetElement);
}

let elementCount = 0;

/** Whether a tree keeps to the catalogue's depth and node count (walked without recursion). */
function isWithinLimits(root: unknown): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }];
  let count = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > WIDGET_LIMITS.maxDepth || ++count > WIDGET_LIMITS.maxNodes) return false;
    const children =
      (node as { children?: unknown; items?: unknown } | null)?.children ??
      (node as { type?: unknown; items?: unknown } | null)?.items;
    if (Array.isArray(children) && (node as { type?: unknown }).type !== 'key_value') {
      for (const child of children.slice(0, WIDGET_LIMITS.maxItems + 1)) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return true;
}

/** A string within the catalogue's length for it. */
function isText(value: unknown, max: number = WIDGET_LIMITS.maxTextChars): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** A short token (a tone, a gap) as text for a `data-` attribute, which the styles match exactly. */
function text(value: unknown): string | undefined {
  return isText(value, WIDGET_LIMITS.maxNameChars) ? value : undefined;
}

function validOptions(options: unknown): options is { value: string; label: string }[] {
  return (
    Array.isArray(options) &&
    options.length <= WIDGET_LIMITS.maxOptions &&
    options.every((option) => isText(option?.value) && isText(option?.label))
  );
}

/** A form's values by field name, read from its controls (a checkbox's is a boolean). */
function readValues(form: HTMLFormElement, node: WidgetFormNode): WidgetValues {
  const data = new FormData(form);
  const values: WidgetValues = {};
  for (const field of node.fields) {
    if (field.type === 'checkbox') values[field.name] = data.has(field.name);
    else {
      const value = data.get(field.name);
      if (typeof value === 'string') values[field.name] = value;
    }
  }
  return values;
}
