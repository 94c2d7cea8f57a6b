import { parseSync, type Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import {
  DROPPED_DOMPURIFY_METHODS,
  dropUnusedDomPurifyMethods,
  NAMESPACE_DOMPURIFY_LISTS,
  TRIMMED_DOMPURIFY_LISTS,
  trimDomPurifyLists,
} from './trim-dompurify-lists.ts';

/** The one module of ours that may use DOMPurify, and what its config must and must not say. */
const DOMPURIFY_USER = '/src/ui/markdown/sanitize-html.ts';
const REQUIRED_IN_USER = ['ALLOWED_TAGS,', 'ALLOWED_ATTR: ['];
const FORBIDDEN_IN_USER = [
  { pattern: /\bUSE_PROFILES\s*:/, name: 'USE_PROFILES' },
  { pattern: /\bADD_TAGS\s*:/, name: 'ADD_TAGS' },
  { pattern: /\bADD_ATTR\s*:/, name: 'ADD_ATTR' },
  ...DROPPED_DOMPURIFY_METHODS.map((method) => ({ pattern: new RegExp(`\\.${method}\\(`), name: `${method}()` })),
];

/** DOMPurify's default allow-lists: the only sets built from the trimmed lists (but the namespace sets). */
const DEFAULT_SETS = ['DEFAULT_ALLOWED_TAGS', 'DEFAULT_ALLOWED_ATTR'] as const;
/** The sets the namespace check looks names up in, built from {@link NAMESPACE_DOMPURIFY_LISTS}. */
const NAMESPACE_SETS = ['ALL_SVG_TAGS', 'ALL_MATHML_TAGS'] as const;
/** The namespace check's functions: the only places a namespace set may be read, as `SET[tagName]`. */
const NAMESPACE_CHECKS = ['_checkSvgNamespace', '_checkMathMlNamespace', '_checkHtmlNamespace'];

interface AstNode {
  type: string;
  [key: string]: unknown;
}

/**
 * Empties DOMPurify's lists that only fill its default allow-lists and `USE_PROFILES` (HTML
 * elements; HTML, SVG, MathML and XML attributes; about 1.9 KB gzip). The widget always passes its
 * own `ALLOWED_TAGS` and `ALLOWED_ATTR` and never `USE_PROFILES`, so DOMPurify never consults the
 * defaults; any call that did would now allow less, never more. It also cuts the public methods the
 * widget never calls (`setConfig`, `clearConfig`, `isValidAttribute`, the hook removers; about
 * 200 B gzip), which the bundler cannot drop from the instance. Fails the build if DOMPurify reads
 * a trimmed list or a default set anywhere else ({@link checkDomPurifyListReads}), or if a module
 * of ours uses DOMPurify another way ({@link checkDomPurifyUse}). The ESM build keeps DOMPurify whole.
 */
export function trimDomPurifyDefaults(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:trim-dompurify-defaults',
    dependencyFile: '/node_modules/dompurify/dist/purify.es.mjs',
    userModule: DOMPURIFY_USER,
    definedIn: 'scripts/build/trim-dompurify-defaults.ts',
    transform: trimDomPurify,
    checkUse: checkDomPurifyUse,
  });
}

/**
 * The transform of {@link trimDomPurifyDefaults} on the text of `purify.es.mjs`: the checked list
 * trim, then the cut of the unused methods. Returns `{ error }` naming what changed shape.
 */
export function trimDomPurify(code: string): string | { error: string } {
  const error = checkDomPurifyListReads(code);
  if (error !== null) return { error };
  const trimmed = trimDomPurifyLists(code);
  return typeof trimmed === 'string' ? dropUnusedDomPurifyMethods(trimmed) : trimmed;
}

/**
 * Why the text of `purify.es.mjs` breaks {@link trimDomPurifyDefaults}'s assumption, or `null`.
 * Parsed, not pattern-matched: each trimmed list must be read only as a spread into a default set
 * or as `addToSet(…, list)` under `if (USE_PROFILES.… === true)`, and each default set only as the
 * fallback of `_resolveSetOption(cfg, "ALLOWED_…", …)`, in an `===` identity test, or handed to
 * `_forkSharedAllowlist` (which only compares it).
 */
export function checkDomPurifyListReads(code: string): string | null {
  const parsed = parseSync('purify.es.mjs', code);
  if (parsed.errors.length > 0) return 'purify.es.mjs does not parse';
  const watched = new Set<string>([...TRIMMED_DOMPURIFY_LISTS, ...DEFAULT_SETS, ...NAMESPACE_SETS]);
  const problems: string[] = [];
  const declarations = new Map<string, number>();
  const visit = (node: AstNode, ancestors: AstNode[], shadowed: ReadonlySet<string>): void => {
    let inner = shadowed;
    if (/Function/.test(node.type)) {
      const params = collectBindingNames(node.params as AstNode[]).filter((name) => watched.has(name));
      if (params.length > 0) inner = new Set([...shadowed, ...params]);
    }
    if (node.type === 'VariableDeclarator') {
      for (const name of collectBindingNames([node.id as AstNode])) {
        if (watched.has(name)) declarations.set(name, (declarations.get(name) ?? 0) + 1);
      }
    }
    if (node.type === 'Identifier' && watched.has(node.name as string) && !shadowed.has(node.name as string)) {
      const problem = judgeRead(node.name as string, node, ancestors);
      if (problem) problems.push(problem);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'id' && node.type === 'VariableDeclarator') continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isAstNode(child)) visit(child, [...ancestors, node], inner);
      }
    }
  };
  visit(parsed.program as unknown as AstNode, [], new Set());
  for (const name of watched) {
    if (declarations.get(name) !== 1)
      problems.push(`${name} is declared ${declarations.get(name) ?? 0} times, not once`);
  }
  return problems.length === 0 ? null : `purify.es.mjs reads its default lists in an unexpected way: ${problems[0]}`;
}

/** Why one read of a watched name is not one of the expected reads, or `null`. */
function judgeRead(name: string, node: AstNode, ancestors: AstNode[]): string | null {
  const parent = ancestors.at(-1);
  if (!parent) return `${name} at the top level`;
  if (parent.type === 'MemberExpression' && parent.property === node && !parent.computed) return null;
  if (parent.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand) return null;
  if ((TRIMMED_DOMPURIFY_LISTS as readonly string[]).includes(name)) {
    if (parent.type === 'SpreadElement' && isInsideDeclaratorOf(ancestors, DEFAULT_SETS)) return null;
    if (isCallOf(parent, 'addToSet') && isInsideUseProfiles(ancestors)) return null;
    const isNamespaceList = (NAMESPACE_DOMPURIFY_LISTS as readonly string[]).includes(name);
    if (isNamespaceList && parent.type === 'SpreadElement' && isInsideDeclaratorOf(ancestors, NAMESPACE_SETS))
      return null;
    return `${name} is read outside the default sets${isNamespaceList ? ', the namespace sets' : ''} and USE_PROFILES`;
  }
  if ((NAMESPACE_SETS as readonly string[]).includes(name)) {
    const isLookup = parent.type === 'MemberExpression' && parent.object === node && parent.computed === true;
    const key = parent.property as AstNode | undefined;
    if (
      isLookup &&
      key?.type === 'Identifier' &&
      key.name === 'tagName' &&
      isInsideDeclaratorOf(ancestors, NAMESPACE_CHECKS)
    )
      return null;
    return `${name} is read other than as ${name}[tagName] in the namespace check`;
  }
  if (parent.type === 'BinaryExpression' && parent.operator === '===') return null;
  if (isCallOf(parent, '_forkSharedAllowlist')) return null;
  const [, key] = (parent.arguments as AstNode[] | undefined) ?? [];
  const expectedKey = name === 'DEFAULT_ALLOWED_TAGS' ? 'ALLOWED_TAGS' : 'ALLOWED_ATTR';
  if (isCallOf(parent, '_resolveSetOption') && key?.type === 'Literal' && key.value === expectedKey) return null;
  return `${name} is used other than as the ${expectedKey} fallback or in an identity test`;
}

function isInsideDeclaratorOf(ancestors: AstNode[], names: readonly string[]): boolean {
  return ancestors.some(
    (node) => node.type === 'VariableDeclarator' && names.includes((node.id as AstNode).name as string),
  );
}

function isInsideUseProfiles(ancestors: AstNode[]): boolean {
  return ancestors.some((node) => {
    if (node.type !== 'IfStatement') return false;
    const test = node.test as AstNode;
    const left = test.left as AstNode | undefined;
    return (
      test.type === 'BinaryExpression' &&
      test.operator === '===' &&
      left?.type === 'MemberExpression' &&
      (left.object as AstNode).name === 'USE_PROFILES'
    );
  });
}

function isCallOf(node: AstNode, callee: string): boolean {
  return node.type === 'CallExpression' && (node.callee as AstNode).name === callee;
}

/** The names a list of binding patterns (parameters or a declarator's id) declares. */
function collectBindingNames(patterns: AstNode[]): string[] {
  return patterns.flatMap((pattern): string[] => {
    if (!isAstNode(pattern)) return [];
    if (pattern.type === 'Identifier') return [pattern.name as string];
    if (pattern.type === 'AssignmentPattern') return collectBindingNames([pattern.left as AstNode]);
    if (pattern.type === 'RestElement') return collectBindingNames([pattern.argument as AstNode]);
    if (pattern.type === 'ArrayPattern') return collectBindingNames(pattern.elements as AstNode[]);
    if (pattern.type === 'ObjectPattern') {
      return (pattern.properties as AstNode[]).flatMap((property) =>
        collectBindingNames([(property.type === 'RestElement' ? property.argument : property.value) as AstNode]),
      );
    }
    return [];
  });
}

function isAstNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/**
 * Why a module of ours breaks {@link trimDomPurifyDefaults}'s assumption, or `null`: only
 * `sanitize-html.ts` may import DOMPurify, and its config must give `ALLOWED_TAGS` and
 * `ALLOWED_ATTR` and set none of `USE_PROFILES`, `ADD_TAGS`, `ADD_ATTR`, nor call a dropped method (`setConfig()`, `isValidAttribute()`, …).
 */
export function checkDomPurifyUse(code: string, id: string): string | null {
  const isImported = /^import\s+(?!type\s)[^;]*from\s+'dompurify';/m.test(code);
  if (!id.endsWith(DOMPURIFY_USER)) return isImported ? `${id} imports DOMPurify; only ${DOMPURIFY_USER} may` : null;
  const missing = REQUIRED_IN_USER.find((text) => !code.includes(text));
  if (missing) return `${DOMPURIFY_USER} no longer passes ${missing.replace(/[,:[\s]+$/, '')} in its DOMPurify config`;
  const forbidden = FORBIDDEN_IN_USER.find((rule) => rule.pattern.test(code));
  return forbidden ? `${DOMPURIFY_USER} uses DOMPurify's ${forbidden.name}` : null;
}
