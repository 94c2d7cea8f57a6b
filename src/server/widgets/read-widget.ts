import { WIDGET_LIMITS, type Widget, type WidgetNode } from '../../core/protocol.ts';
import { isPlainObject } from '../../core/is-plain-object.ts';
import { sha256Digest } from '../json/canonical-json.ts';
import { createJsonSchemaCompiler } from '../tools/validate-json-schema.ts';
import widgetSchema from './widget.schema.json' with { type: 'json' };

/** What a tool or a hook hands in for a widget: its tree, and an id to update it by later. */
export interface WidgetInit {
  /** Keeps the widget's identity across updates; minted when absent. */
  widgetId?: string;
  root: WidgetNode;
}

/** What an action run hands {@link readWidget} besides the init: the revision its update is. */
export interface WidgetRevision {
  revision?: number;
}

/** What {@link readWidget} needs besides the widget. */
export interface ReadWidgetOptions {
  /** The origins images may come from (`capabilities.widgets.imageOrigins`); none allows no image. */
  imageOrigins: readonly string[];
  /** Mints a widget id when the init has none. */
  mintId: () => string;
}

/** A widget that passed every check, or the problems of one that did not. */
export type ReadWidgetResult = { widget: Widget } | { problems: string[] };

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const validateNode = createJsonSchemaCompiler().compile(widgetSchema as Record<string, unknown>);

/**
 * Checks a widget a tool, the render tool or an action hook produced (hostile: it may come from the
 * model) against the catalogue: first the shape limits of {@link WIDGET_LIMITS} (depth, node
 * count, walked without recursion so a deep tree cannot overflow the stack), then the JSON Schema
 * `widget.schema.json` with Ajv, then what a schema cannot say: a table's rows have as many cells
 * as it has columns, a form's field names are unique and its choices' values are among their
 * options, and an image is https from an allowed origin. Returns the widget with its digest.
 */
export function readWidget(init: unknown, options: ReadWidgetOptions & WidgetRevision): ReadWidgetResult {
  if (!isPlainObject(init)) return { problems: ['the widget must be an object {widgetId?, root}'] };
  const { widgetId = options.mintId(), root } = init as Partial<WidgetInit> & Record<string, unknown>;
  if (typeof widgetId !== 'string' || !ID_PATTERN.test(widgetId)) {
    return { problems: ['widgetId must be 1–64 characters of A–Z, a–z, 0–9, _ -'] };
  }
  const shape = checkShape(root);
  if (shape !== null) return { problems: [shape] };
  // The schema dispatches on `type` with if/then: the branch's own problems say it, its "then" adds nothing.
  const problems = validateNode(root).filter((problem) => !problem.endsWith('must match "then" schema'));
  if (problems.length > 0) return { problems };
  const meaning = checkMeaning(root as WidgetNode, options.imageOrigins);
  if (meaning.length > 0) return { problems: meaning };
  const valid = root as WidgetNode;
  const revision = options.revision ?? 0;
  return { widget: { widgetId, root: valid, revision, digest: digestWidget(widgetId, valid, revision) } };
}

/** The digest an action must name: `sha256:` + base64url of the canonical `{widgetId, root, revision}`. */
export function digestWidget(widgetId: string, root: WidgetNode, revision = 0): string {
  return sha256Digest({ widgetId, root, revision });
}

/** The children a node holds, for the walks (a list's items are nodes of their own). */
export function childrenOf(node: WidgetNode): readonly unknown[] {
  if ('children' in node && Array.isArray(node.children)) return node.children;
  if (node.type === 'list' && Array.isArray(node.items)) return node.items;
  return [];
}

function checkShape(root: unknown): string | null {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }];
  let count = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > WIDGET_LIMITS.maxDepth) return `the widget nests deeper than ${WIDGET_LIMITS.maxDepth} levels`;
    if (++count > WIDGET_LIMITS.maxNodes) return `the widget has more than ${WIDGET_LIMITS.maxNodes} nodes`;
    if (!isPlainObject(node)) continue;
    const typed = node as unknown as WidgetNode;
    const children = typeof typed.type === 'string' ? childrenOf(typed) : [];
    for (const child of children.slice(0, WIDGET_LIMITS.maxItems + 1)) stack.push({ node: child, depth: depth + 1 });
  }
  return null;
}

function checkMeaning(root: WidgetNode, imageOrigins: readonly string[]): string[] {
  const problems: string[] = [];
  const stack: WidgetNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    stack.push(...(childrenOf(node) as WidgetNode[]));
    if (node.type === 'table') {
      const width = node.columns.length;
      const ragged = node.rows.findIndex((row) => row.length !== width);
      if (ragged !== -1) problems.push(`table row ${ragged} must have ${width} cells`);
    } else if (node.type === 'image' && !isAllowedImage(node.src, imageOrigins)) {
      problems.push('an image must come over https from an origin the server allows');
    } else if (node.type === 'form') {
      const names = new Set<string>();
      for (const field of node.fields) {
        if (names.has(field.name)) problems.push(`form field name "${field.name}" is used twice`);
        names.add(field.name);
        if ((field.type === 'select' || field.type === 'radio') && field.value !== undefined) {
          if (!field.options.some((option) => option.value === field.value))
            problems.push(`field "${field.name}" has a value that is not one of its options`);
        }
      }
    }
  }
  return problems;
}

function isAllowedImage(src: string, imageOrigins: readonly string[]): boolean {
  try {
    const url = new URL(src);
    return url.protocol === 'https:' && url.username === '' && imageOrigins.includes(url.origin);
  } catch {
    return false;
  }
}
