import { parseSync } from 'vite';

/** One node of the ESTree-shaped tree Vite's parser (Oxc) returns, with its source offsets. */
export interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** A node with the chain of nodes above it, outermost first. */
export interface PlacedNode {
  node: AstNode;
  ancestors: AstNode[];
}

/**
 * Parses `code` (the language follows `fileName`'s extension) and lists every node in source
 * order with its ancestors, or returns `{ error }` when the text does not parse.
 */
export function listAstNodes(fileName: string, code: string): PlacedNode[] | { error: string } {
  const parsed = parseSync(fileName, code);
  if (parsed.errors.length > 0) return { error: `${fileName} does not parse` };
  const nodes: PlacedNode[] = [];
  const visit = (node: AstNode, ancestors: AstNode[]): void => {
    nodes.push({ node, ancestors });
    const inner = [...ancestors, node];
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isAstNode(child)) visit(child, inner);
      }
    }
  };
  visit(parsed.program as unknown as AstNode, []);
  return nodes;
}

/** Whether `value` is a node of the tree (an object with a string `type`). */
export function isAstNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/** Whether an identifier is a name rather than a variable: `x.name` or `{ name: … }`. */
export function isPropertyName(node: AstNode, parent: AstNode | undefined): boolean {
  if (parent?.type === 'MemberExpression') return parent.property === node && !parent.computed;
  return parent?.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand;
}

/** The one item of `items`, or undefined when there are none or several (a transform finds what it rewrites exactly once). */
export function onlyOne<T>(items: readonly T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

/**
 * The first of `names` that `nodes` still use as a variable outside every edit's range, if any: a
 * cut of their declarations would leave that use dangling.
 */
export function findUseOutsideEdits(
  nodes: readonly PlacedNode[],
  names: readonly string[],
  edits: readonly Edit[],
): string | undefined {
  for (const { node, ancestors } of nodes) {
    if (node.type !== 'Identifier' || !names.includes(node.name as string)) continue;
    if (isPropertyName(node, ancestors.at(-1))) continue;
    if (!edits.some((edit) => edit.start <= node.start && node.end <= edit.end)) return node.name as string;
  }
  return undefined;
}

/** A replacement of the text from `start` to `end`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies `edits` to `code`. An edit inside another one's range is dropped (a removed statement
 * takes its reads with it); edits that partly overlap are a mistake in the transform and throw.
 */
export function applyEdits(code: string, edits: Edit[]): string {
  const ordered = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  let result = '';
  let position = 0;
  for (const edit of ordered) {
    if (edit.end <= position) continue;
    if (edit.start < position) throw new Error(`overlapping edits at ${edit.start}`);
    result += code.slice(position, edit.start) + edit.text;
    position = edit.end;
  }
  return result + code.slice(position);
}
