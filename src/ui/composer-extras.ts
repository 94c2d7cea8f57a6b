import type { CSSResult, TemplateResult } from 'lit';
import type { ReasoningEffort } from '../core/index.ts';
import { createAttachmentTray, trayStyles, type AttachmentTray, type TrayHost } from './attachment-tray.ts';
import type { SiblingTemplating } from './card-templating.ts';
import type { AgentChatStrings } from './i18n/en.ts';
import { EN_COMPOSER_EXTRAS_STRINGS } from './i18n/en-composer-extras.ts';

/** What the reasoning effort picker renders from. */
export interface EffortPickerView {
  /** The levels the model offers (its `reasoningOptions`). */
  efforts: readonly ReasoningEffort[];
  /** The level picked; empty leaves it to the server. */
  picked: ReasoningEffort | '';
  strings: AgentChatStrings;
  onPick: (effort: ReasoningEffort | '') => void;
}

/** The composer's optional controls, rendering with the widget's Lit. */
export interface ComposerExtras {
  /** The attachment tray: files picked, pasted or dropped, and the product's references. */
  createTray(host: TrayHost): AttachmentTray;
  /** The reasoning effort picker (mount option `effortPicker`). */
  renderEffortPicker(view: EffortPickerView): TemplateResult;
  /** Their styles, adopted beside the element's. */
  styles: CSSResult[];
}

/** The label of each reasoning effort in the picker. */
const EFFORT_LABEL_KEYS: Record<
  ReasoningEffort,
  Extract<keyof typeof EN_COMPOSER_EXTRAS_STRINGS, `effort${string}`>
> = {
  low: 'effortLow',
  medium: 'effortMedium',
  high: 'effortHigh',
  xhigh: 'effortXhigh',
  max: 'effortMax',
};

/**
 * Creates the composer's optional controls (the script tag's sibling file
 * `agent-chat.composer-extras.js`, loaded when the composer first offers attaching or an effort
 * picker): the attachment tray (src/ui/attachment-tray.ts) and the reasoning effort picker.
 * Everything renders through `templating`, so this file holds no Lit and no Trusted Types policy.
 */
export function createComposerExtras(templating: SiblingTemplating): ComposerExtras {
  const { html, css } = templating;
  return {
    createTray: (host) => createAttachmentTray(templating, host),
    renderEffortPicker({ efforts, picked, strings, onPick }) {
      const text = { ...EN_COMPOSER_EXTRAS_STRINGS, ...strings };
      const onChange = (event: Event) => onPick((event.target as HTMLSelectElement).value as ReasoningEffort | '');
      return html`<select part="effort-select" class="effort-select" aria-label=${text.effort} @change=${onChange}>
        <option value="">${text.effort}</option>
        ${efforts.map((level) => html`<option value=${level} ?selected=${level === picked}>${text[EFFORT_LABEL_KEYS[level]]}</option>`)}
      </select>`;
    },
    styles: [
      trayStyles(css),
      css`
      .effort-select {
        align-self: center;
        font: inherit;
        font-size: var(--agent-chat-font-size-small);
        color: inherit;
        background: none;
        border: 0;
      }
    `,
    ],
  };
}
