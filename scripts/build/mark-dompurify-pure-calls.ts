import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import { DOMPURIFY_FILE, findCreateDomPurify } from './dompurify-source.ts';
import { listAstNodes, type AstNode } from './list-ast-nodes.ts';

/** DOMPurify's helpers that only build a value from their arguments: a bound method, a getter, a fresh object. */
const BUILDING_HELPERS = ['unapply', 'lookupGetter', 'create'];
/** DOMPurify's helpers that change their first argument (freeze it, seal it, fill it as a set). */
const CHANGING_HELPERS = ['seal', 'freeze', 'addToSet'];

/**
 * Marks DOMPurify's constant-building calls `/* @__PURE__ *\/` so the bundler drops the ones whose
 * constant is no longer read after the other DOMPurify transforms (about 200 B gzip): the
 * template and data patterns, the bound methods and getters only the cut options used, the sets
 * of the folded-away table fix-up. Only a call that initializes a `const` of the module or of
 * `createDOMPurify` is marked, and only when it has no effect besides its value: `unapply`,
 * `lookupGetter` and `create` on literals, names and property reads, and `seal`, `freeze` and
 * `addToSet` on a value built right there (a literal or another such call), which nothing else
 * can see. A marked call whose constant is read stays as it is. The ESM build keeps DOMPurify whole.
 */
export function markDomPurifyPureCalls(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:mark-dompurify-pure-calls',
    dependencyFile: DOMPURIFY_FILE,
    userModule: '/src/ui/markdown/sanitize-html.ts',
    definedIn: 'scripts/build/mark-dompurify-pure-calls.ts',
    transform: markPureCalls,
    checkUse: () => null,
  });
}

/** The marking of {@link markDomPurifyPureCalls} on the text of `purify.es.mjs`, or `{ error }` when it does not parse. */
export function markPureCalls(code: string): string | { error: string } {
  const nodes = listAstNodes('purify.es.mjs', code);
  if (!Array.isArray(nodes)) return nodes;
  const factory = findCreateDomPurify(nodes);
  if ('error' in factory) return { error: factory.error as string };
  const scopes = new Set([nodes[0]?.node, factory.body]);
  const starts: number[] = [];
  for (const { node, ancestors } of nodes) {
    if (node.type !== 'CallExpression' || !isEffectFree(node)) continue;
    const declaratorIndex = ancestors.findLastIndex((ancestor) => ancestor.type === 'VariableDeclarator');
    const declaration = ancestors[declaratorIndex - 1];
    const between = ancestors.slice(declaratorIndex + 1);
    const isConstInit =
      declaration?.type === 'VariableDeclaration' &&
      declaration.kind === 'const' &&
      scopes.has(ancestors[declaratorIndex - 2]) &&
      between.every((ancestor) => ancestor.type === 'CallExpression' || ancestor.type === 'ArrayExpression');
    if (isConstInit) starts.push(node.start);
  }
  let marked = code;
  for (const start of starts.sort((a, b) => b - a))
    marked = `${marked.slice(0, start)}/* @__PURE__ */ ${marked.slice(start)}`;
  return marked;
}

/** Whether evaluating `value` has no effect: literals, names, property reads, and the helpers' calls on such values. */
function isEffectFree(value: AstNode | null | undefined): boolean {
  if (!value) return false;
  switch (value.type) {
    case 'Literal':
    case 'Identifier':
      return true;
    case 'MemberExpression':
      return !value.computed && isEffectFree(value.object as AstNode);
    case 'ArrayExpression':
      return (value.elements as Array<AstNode | null>).every(
        (element) =>
          element !== null && isEffectFree(element.type === 'SpreadElement' ? (element.argument as AstNode) : element),
      );
    case 'ObjectExpression':
      return (value.properties as AstNode[]).length === 0;
    case 'CallExpression': {
      const name = (value.callee as AstNode).name as string;
      const [first, ...rest] = value.arguments as AstNode[];
      if (BUILDING_HELPERS.includes(name)) return (value.arguments as AstNode[]).every(isEffectFree);
      if (!CHANGING_HELPERS.includes(name) || !first || !isFresh(first)) return false;
      return isEffectFree(first) && rest.every(isEffectFree);
    }
    default:
      return false;
  }
}

/** Whether `value` is built where it stands (a literal or a helper's call), so changing it is seen by nothing else. */
function isFresh(value: AstNode): boolean {
  if (value.type === 'Literal') return (value as { regex?: unknown }).regex !== undefined;
  return value.type === 'ArrayExpression' || value.type === 'ObjectExpression' || value.type === 'CallExpression';
}
