import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import { checkMarkedUse } from './inline-marked-options.ts';
import {
  applyEdits,
  isAstNode,
  isPropertyName,
  listAstNodes,
  onlyOne,
  type AstNode,
  type Edit,
} from './list-ast-nodes.ts';

/** marked's exports the widget imports (`checkMarkedUse` allows no others). */
const USED_EXPORTS = ['Lexer', 'getDefaults'];

/**
 * Drops the entries of marked's `other` rule table (the regular expressions its tokenizer reads as
 * `this.rules.other.x` and its helpers as `O.x`) that no code the widget can reach reads (about
 * 170 B gzip): those of the parser, the renderers and their escaping, and the pedantic ones that
 * {@link inlineMarkedOptions} folded away. "Reachable" is what the widget's two imports (`Lexer`,
 * `getDefaults`) and marked's load-time code refer to, through marked's top-level names; a read in
 * a branch the option fold made dead (`!1 ? … : …`, `if (!1)`) does not count. Runs after that
 * fold. Fails the build if the table is not one object literal handed to the lexer as `other`, or
 * is read any way but `name.entry` (no computed key, no spread, no passing it on). The ESM build
 * keeps marked whole.
 */
export function dropUnusedMarkedOtherRules(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:drop-unused-marked-other-rules',
    dependencyFile: '/node_modules/marked/lib/marked.esm.js',
    userModule: '/src/ui/markdown/render-tokens-to-html.ts',
    definedIn: 'scripts/build/drop-unused-marked-other-rules.ts',
    transform: dropUnusedOtherRules,
    checkUse: checkMarkedUse,
  });
}

/** The cut of {@link dropUnusedMarkedOtherRules} on the (option-folded) text of `marked.esm.js`, or `{ error }`. */
export function dropUnusedOtherRules(code: string): string | { error: string } {
  const nodes = listAstNodes('marked.esm.js', code);
  if (!Array.isArray(nodes)) return nodes;
  const program = nodes[0]?.node;
  const statements = (program?.body as AstNode[] | undefined) ?? [];
  const table = onlyOne(
    nodes.filter(
      ({ node, ancestors }) =>
        node.type === 'Property' &&
        (node.key as AstNode).name === 'other' &&
        (node.value as AstNode).type === 'Identifier' &&
        !isPropertyName(node.value as AstNode, ancestors.at(-1)),
    ),
  );
  const tableName = (table?.node.value as AstNode | undefined)?.name as string | undefined;
  if (tableName === undefined) return { error: 'marked.esm.js no longer hands one rule table to its lexer as other:' };
  const bindings = collectTopLevelBindings(statements);
  const declarator = bindings.get(tableName);
  const entries = declarator?.type === 'VariableDeclarator' ? (declarator.init as AstNode | null) : null;
  if (entries?.type !== 'ObjectExpression')
    return { error: `marked's other rule table ${tableName} is not an object literal` };
  const exported = exportedLocals(statements);
  const roots = USED_EXPORTS.map((name) => exported.get(name));
  if (roots.some((root) => root === undefined))
    return { error: `marked.esm.js no longer exports ${USED_EXPORTS.join(' and ')}` };
  const reachable = new Set<AstNode>(
    [...bindings.values()].filter(
      (node) => node.type === 'VariableDeclarator' && !/Function|Class/.test((node.init as AstNode | null)?.type ?? ''),
    ),
  );
  const pending = [
    ...reachable,
    ...roots.map((name) => bindings.get(name as string)).filter((node) => node !== undefined),
  ];
  for (const statement of statements) if (!/Declaration$/.test(statement.type)) pending.push(statement);
  const read = new Set<string>();
  while (pending.length > 0) {
    const current = pending.pop() as AstNode;
    reachable.add(current);
    for (const { node, parent } of walkLive(current)) {
      if (node.type === 'MemberExpression' && !node.computed) read.add((node.property as AstNode).name as string);
      if (node.type !== 'Identifier' || isPropertyName(node, parent) || isDeclaredName(node, parent)) continue;
      if (node.name === tableName && parent && !isTableRead(node, parent)) {
        return { error: `marked.esm.js uses its other rule table ${tableName} other than as ${tableName}.entry` };
      }
      const target = bindings.get(node.name as string);
      if (target && !reachable.has(target)) pending.push(target);
    }
  }
  const properties = entries.properties as AstNode[];
  const edits: Edit[] = [];
  for (const [index, property] of properties.entries()) {
    const key =
      property.type === 'Property' && !property.computed ? ((property.key as AstNode).name as string) : undefined;
    if (key === undefined)
      return { error: `marked's other rule table ${tableName} has an entry that is not a plain key` };
    if (read.has(key)) continue;
    const start = index === 0 ? property.start : (properties[index - 1] as AstNode).end;
    const end = index === 0 ? ((properties[1] as AstNode | undefined)?.start ?? property.end) : property.end;
    edits.push({ start, end, text: '' });
  }
  return applyEdits(code, edits);
}

/** Each top-level name of the module with the declarator, function or class that defines it. */
function collectTopLevelBindings(statements: AstNode[]): Map<string, AstNode> {
  const bindings = new Map<string, AstNode>();
  for (const statement of statements) {
    if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') {
      bindings.set((statement.id as AstNode).name as string, statement);
    }
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations as AstNode[]) {
      const id = declarator.id as AstNode;
      if (id.type === 'Identifier') bindings.set(id.name as string, declarator);
    }
  }
  return bindings;
}

/** The local name of each export of the module's `export { local as name, … }`. */
function exportedLocals(statements: AstNode[]): Map<string, string> {
  const locals = new Map<string, string>();
  for (const statement of statements) {
    if (statement.type !== 'ExportNamedDeclaration') continue;
    for (const specifier of statement.specifiers as AstNode[]) {
      const exported = specifier.exported as AstNode;
      locals.set((exported.name ?? exported.value) as string, (specifier.local as AstNode).name as string);
    }
  }
  return locals;
}

/** Whether an identifier is the name a declarator, function or class declares (not a use). */
function isDeclaredName(node: AstNode, parent: AstNode | undefined): boolean {
  return (parent?.type === 'VariableDeclarator' || /Function|Class/.test(parent?.type ?? '')) && parent?.id === node;
}

/** Whether a use of the table is `table.entry` (a plain read) or its hand-over `other: table`. */
function isTableRead(node: AstNode, parent: AstNode): boolean {
  if (parent.type === 'MemberExpression') return parent.object === node && !parent.computed;
  return parent.type === 'Property' && parent.value === node && (parent.key as AstNode).name === 'other';
}

/** Every node under `root` with its parent, skipping the branches the option fold made dead. */
function* walkLive(root: AstNode): Generator<{ node: AstNode; parent: AstNode | undefined }> {
  const stack: Array<{ node: AstNode; parent: AstNode | undefined }> = [{ node: root, parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop() as { node: AstNode; parent: AstNode | undefined };
    yield entry;
    const { node } = entry;
    const dead = deadChildOf(node);
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child !== dead && isAstNode(child)) stack.push({ node: child, parent: node });
      }
    }
  }
}

/** The branch of `node` that can never run because its test is the literal `!1` or `!0`, if any. */
function deadChildOf(node: AstNode): unknown {
  const isConstant = (test: unknown, value: boolean): boolean => {
    const candidate = test as AstNode | undefined;
    return (
      candidate?.type === 'UnaryExpression' &&
      candidate.operator === '!' &&
      (candidate.argument as AstNode).type === 'Literal' &&
      (candidate.argument as AstNode).value === (value ? 0 : 1)
    );
  };
  if (node.type === 'ConditionalExpression' || node.type === 'IfStatement') {
    if (isConstant(node.test, false)) return node.consequent;
    if (isConstant(node.test, true)) return node.alternate;
  }
  if (node.type === 'LogicalExpression') {
    if (node.operator === '&&' && isConstant(node.left, false)) return node.right;
    if (node.operator === '||' && isConstant(node.left, true)) return node.right;
  }
  return undefined;
}
