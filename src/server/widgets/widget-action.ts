import type { Widget, WidgetField, WidgetFormNode, WidgetNode, WidgetValues } from '../../core/protocol.ts';
import type { Subject } from '../subject.ts';
import { childrenOf, type WidgetInit } from './read-widget.ts';

/** One action a user took on a widget, as the hook gets it (docs/widgets.md, "Actions"). */
export interface WidgetAction {
  widgetId: string;
  /** The button's or the form's `action`. */
  action: string;
  /** A form's values by field name (checked against its fields); empty for a button. */
  values: WidgetValues;
  /** The widget as the user saw it (its digest is the one the action named). */
  widget: Widget;
  /** The run that showed the widget (or last updated it). */
  shownInRunId: string;
}

/** What an action run keeps of its action (in `RunStart.input`, so a resume has it too). */
export interface WidgetActionStart extends Omit<WidgetAction, 'values'> {
  values: WidgetValues;
  /** What the transcript says the user did: the button's label or the form's submit label. */
  label: string;
}

/** What the hook gets besides the action. */
export interface WidgetActionContext {
  /** The run that records the action. */
  runId: string;
  sessionId: string;
  /** The locale the user reads, when known. */
  locale: string | undefined;
  signal: AbortSignal;
}

/**
 * What the product's `onWidgetAction` decides: the widget's new tree (the same `widgetId` is
 * kept; omitted: a submitted form shows as submitted, a button leaves it as it is), a message to
 * answer with, and whether the model then answers the action too (`startRun`).
 */
export interface WidgetActionOutcome {
  widget?: WidgetInit['root'];
  message?: string;
  startRun?: boolean;
}

/** The product's one hook for widget actions (an engine option). */
export type OnWidgetAction = (
  action: WidgetAction,
  subject: Subject,
  context: WidgetActionContext,
) => WidgetActionOutcome | void | Promise<WidgetActionOutcome | void>;

/** The button or form in `root` that sends `action`, if one does and it can still be used. */
export function findActionNode(
  root: WidgetNode,
  action: string,
): Extract<WidgetNode, { type: 'button' | 'form' }> | undefined {
  const stack: WidgetNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ((node.type === 'button' && node.disabled !== true) || (node.type === 'form' && node.submitted !== true)) {
      if (node.action === action) return node;
    }
    stack.push(...(childrenOf(node) as WidgetNode[]));
  }
  return undefined;
}

/**
 * Checks a form's submitted values against its fields: only its names, a boolean for a checkbox,
 * a string within `maxChars` otherwise, one of the options for a choice, `YYYY-MM-DD` for a date,
 * present for a required field. Returns the problem, or null.
 */
export function checkFormValues(form: WidgetFormNode, values: WidgetValues, maxChars: number): string | null {
  const fields = new Map<string, WidgetField>(form.fields.map((field) => [field.name, field]));
  for (const [name, value] of Object.entries(values)) {
    const field = fields.get(name);
    if (field === undefined) return `values.${name} is not a field of the form`;
    if (field.type === 'checkbox') {
      if (typeof value !== 'boolean') return `values.${name} must be a boolean`;
      continue;
    }
    if (typeof value !== 'string') return `values.${name} must be a string`;
    if (value.length > maxChars) return `values.${name} must have at most ${maxChars} characters`;
    if (
      (field.type === 'select' || field.type === 'radio') &&
      value !== '' &&
      !field.options.some((o) => o.value === value)
    )
      return `values.${name} must be one of its options`;
    if (field.type === 'date' && value !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      return `values.${name} must be a date (YYYY-MM-DD)`;
  }
  for (const field of form.fields) {
    if (field.type !== 'checkbox' && field.required === true && !values[field.name])
      return `values.${field.name} is required`;
  }
  return null;
}

/** The default update of an action: the submitted form shows as submitted, with the values it sent. */
export function markSubmitted(root: WidgetNode, action: string, values: WidgetValues): WidgetNode {
  const mark = (node: WidgetNode): WidgetNode => {
    if (node.type === 'form' && node.action === action) {
      return {
        ...node,
        submitted: true,
        fields: node.fields.map((field) => {
          const value = values[field.name];
          return value === undefined ? field : ({ ...field, value } as WidgetField);
        }),
      };
    }
    if ('children' in node) return { ...node, children: node.children.map(mark) } as WidgetNode;
    if (node.type === 'list') return { ...node, items: node.items.map((item) => mark(item) as typeof item) };
    return node;
  };
  return mark(root);
}
