/**
 * Declarative widgets (docs/widgets.md): a closed catalogue of components a server tool answers
 * with beside its text result. Part of the wire contract; import it through `src/core/protocol.ts`.
 * The JSON Schema of {@link WidgetNode} is `src/server/widgets/widget.schema.json`; the limits
 * below are enforced by the server before a widget enters the log, and again by the renderer.
 */

/** The icons a widget may name (a fixed set: a widget never carries a picture of its own). */
export const WIDGET_ICON_NAMES = [
  'check',
  'close',
  'info',
  'warning',
  'error',
  'package',
  'truck',
  'calendar',
  'user',
  'location',
  'link',
  'star',
] as const;

export type WidgetIconName = (typeof WIDGET_ICON_NAMES)[number];

/** A colour role from the design tokens (never a colour value). */
export type WidgetTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** Space between a container's children, from the design tokens. */
export type WidgetGap = 'none' | 'small' | 'medium' | 'large';

/** A box that holds others: a card (a framed group), a row, a column or a plain box. */
export interface WidgetContainerNode {
  type: 'card' | 'row' | 'column' | 'box';
  children: WidgetNode[];
  gap?: WidgetGap;
  align?: 'start' | 'center' | 'end';
}

/** Plain text: a title (a heading), a paragraph, or a small caption. Always text, never markup. */
export interface WidgetTextNode {
  type: 'title' | 'text' | 'caption';
  text: string;
  tone?: WidgetTone;
}

/** Markdown, rendered by the same sanitizing renderer as answers (no raw HTML, safe links only). */
export interface WidgetMarkdownNode {
  type: 'markdown';
  text: string;
}

export interface WidgetBadgeNode {
  type: 'badge';
  text: string;
  tone?: WidgetTone;
}

export interface WidgetDividerNode {
  type: 'divider';
}

/** An icon of {@link WIDGET_ICON_NAMES}; with `label` it is announced, else decorative. */
export interface WidgetIconNode {
  type: 'icon';
  name: WidgetIconName;
  label?: string;
}

/** An image from an origin the server allows (`capabilities.widgets.imageOrigins` of the bootstrap), over https. */
export interface WidgetImageNode {
  type: 'image';
  src: string;
  alt: string;
}

export interface WidgetListNode {
  type: 'list';
  items: WidgetListItemNode[];
  ordered?: boolean;
}

export interface WidgetListItemNode {
  type: 'list_item';
  children: WidgetNode[];
}

/** Pairs of a name and its value, shown as a description list. */
export interface WidgetKeyValueNode {
  type: 'key_value';
  items: { key: string; value: string }[];
}

/** A table of text cells: one header row (`columns`) and rows of as many cells. */
export interface WidgetTableNode {
  type: 'table';
  caption?: string;
  columns: string[];
  rows: string[][];
}

/** A button that sends `action` (docs/widgets.md, "Actions"). */
export interface WidgetButtonNode {
  type: 'button';
  label: string;
  action: string;
  style?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
}

/** A form whose submit sends `action` with the fields' values by `name`. */
export interface WidgetFormNode {
  type: 'form';
  action: string;
  submitLabel: string;
  fields: WidgetField[];
  /** Set by the server once the form was submitted: the form shows its values, read-only. */
  submitted?: boolean;
}

/** A text-like input: one line, several lines, or a date (`YYYY-MM-DD`). */
export interface WidgetTextField {
  type: 'text' | 'textarea' | 'date';
  name: string;
  label: string;
  value?: string;
  placeholder?: string;
  required?: boolean;
}

/** A choice of one option: a drop-down or radio buttons. */
export interface WidgetChoiceField {
  type: 'select' | 'radio';
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string;
  required?: boolean;
}

export interface WidgetCheckboxField {
  type: 'checkbox';
  name: string;
  label: string;
  value?: boolean;
}

export type WidgetField = WidgetTextField | WidgetChoiceField | WidgetCheckboxField;

/** Any node of the catalogue, discriminated on `type`. */
export type WidgetNode =
  | WidgetContainerNode
  | WidgetTextNode
  | WidgetMarkdownNode
  | WidgetBadgeNode
  | WidgetDividerNode
  | WidgetIconNode
  | WidgetImageNode
  | WidgetListNode
  | WidgetListItemNode
  | WidgetKeyValueNode
  | WidgetTableNode
  | WidgetButtonNode
  | WidgetFormNode;

// The action's bodies and a form's values come from the contract's schema (src/core/protocol/schema/).
export type { WidgetActionRequest, WidgetActionResponse, WidgetValues } from './generated/wire-contract.ts';

/**
 * A widget as the log and the snapshot keep it: on `TOOL_CALL_RESULT.widget`, hence on the
 * snapshot's `toolCalls[].result.widget`. `digest` is `sha256:` + base64url of the RFC 8785
 * canonical `{widgetId, root, revision}`: an action names it, and the server refuses any other (412).
 */
export interface Widget {
  widgetId: string;
  root: WidgetNode;
  /** How many times it was updated (0 as a tool showed it; an action or `WIDGET_UPDATED` adds one): each makes a new digest. */
  revision: number;
  digest: string;
}

/** The limits of a widget (docs/widgets.md, "Limits"); a widget past one is refused whole. */
export const WIDGET_LIMITS = {
  /** Nesting of nodes, the root being depth 1. */
  maxDepth: 8,
  /** Nodes in the tree (list items, fields and cells are not nodes). */
  maxNodes: 300,
  /** Rows of one table. */
  maxTableRows: 200,
  /** Columns of one table. */
  maxTableColumns: 12,
  /** Items of one list or key–value. */
  maxItems: 100,
  /** Fields of one form, options of one choice. */
  maxFields: 20,
  maxOptions: 50,
  /** Characters of a label, a cell, a key, a value or a plain text. */
  maxTextChars: 2_000,
  /** Characters of a Markdown node. */
  maxMarkdownChars: 8_000,
  /** Characters of an id, an action name or a field name. */
  maxNameChars: 64,
  /** Characters of an image URL. */
  maxUrlChars: 2_048,
} as const;
