import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import { checkSanitizeConfigUse } from './check-sanitize-config-use.ts';
import { DOMPURIFY_FILE, findCreateDomPurify } from './dompurify-source.ts';
import { FOLDED_DOMPURIFY_SETTINGS, WIDGET_DOMPURIFY_OPTIONS } from './dompurify-widget-settings.ts';
import {
  applyEdits,
  isPropertyName,
  listAstNodes,
  onlyOne,
  type AstNode,
  type Edit,
  type PlacedNode,
} from './list-ast-nodes.ts';

/** The helpers `_parseConfig` reads an option through as `helper(cfg, "OPTION", fallback, …)`, with what an absent option gives. */
const OPTION_READERS: Record<string, 'false' | 'fallback'> = {
  objectHasOwnProperty: 'false',
  _resolveSetOption: 'fallback',
  _resolveObjectOption: 'fallback',
};

/**
 * Folds DOMPurify's configuration to the one the widget always passes (about 2.4 KB gzip).
 * `_parseConfig` reads each option the widget never sets as absent, and each setting that is
 * then the same on every call (`FOLDED_DOMPURIFY_SETTINGS`) becomes that constant, so the
 * minifier drops the code of the options the widget never uses: `SAFE_FOR_TEMPLATES`,
 * `WHOLE_DOCUMENT`, `IN_PLACE` (with its whole fail-closed machinery), `RETURN_TRUSTED_TYPE`,
 * string output, `PARSER_MEDIA_TYPE` xhtml, `NAMESPACE`, `FORCE_BODY`, `SANITIZE_NAMED_PROPS`,
 * `USE_PROFILES`, `ADD_*`, `ALLOW_DATA_ATTR`/`ALLOW_ARIA_ATTR`, `ALLOW_UNKNOWN_PROTOCOLS`.
 * Every check DOMPurify makes under the widget's config stays; a call with another config would
 * still run the widget's settings. Fails the build if `_parseConfig` reads an option another way,
 * if a folded setting is written anywhere but the known places, or if the widget's config
 * changes ({@link checkSanitizeConfigUse}). The ESM build keeps DOMPurify whole.
 */
export function foldDomPurifyConfig(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:fold-dompurify-config',
    dependencyFile: DOMPURIFY_FILE,
    userModule: '/src/ui/markdown/sanitize-html.ts',
    definedIn: 'scripts/build/fold-dompurify-config.ts',
    transform: foldDomPurifySettings,
    checkUse: checkSanitizeConfigUse,
  });
}

/**
 * The fold of {@link foldDomPurifyConfig} on the text of `purify.es.mjs`, or `{ error }` naming
 * what no longer has the expected shape.
 */
export function foldDomPurifySettings(code: string): string | { error: string } {
  const nodes = listAstNodes('purify.es.mjs', code);
  if (!Array.isArray(nodes)) return nodes;
  const factory = findCreateDomPurify(nodes);
  if ('error' in factory) return { error: factory.error as string };
  const inFactory = nodes.filter(({ ancestors }) => ancestors.includes(factory));
  const parseConfig = onlyOne(
    inFactory.filter(({ node }) => node.type === 'VariableDeclarator' && (node.id as AstNode).name === '_parseConfig'),
  )?.node.init as AstNode | undefined;
  if (parseConfig?.type !== 'FunctionExpression') {
    return { error: 'purify.es.mjs no longer declares const _parseConfig = function once' };
  }
  const optionEdits = foldAbsentOptionReads(
    code,
    inFactory.filter(({ ancestors }) => ancestors.includes(parseConfig)),
  );
  if (!Array.isArray(optionEdits)) return optionEdits;
  const settingEdits = foldSettings(code, factory, inFactory);
  if (!Array.isArray(settingEdits)) return settingEdits;
  return applyEdits(code, [...optionEdits, ...settingEdits]);
}

/**
 * The edits that make `_parseConfig` read every option the widget does not set as absent:
 * `cfg.OPTION` becomes `void 0`, `objectHasOwnProperty(cfg, "OPTION")` `false`, and
 * `_resolveSetOption`/`_resolveObjectOption(cfg, "OPTION", fallback, …)` its fallback. Refuses
 * any other read of `cfg`, and a widget option `_parseConfig` no longer reads.
 */
function foldAbsentOptionReads(code: string, parseNodes: PlacedNode[]): Edit[] | { error: string } {
  const kept: readonly string[] = WIDGET_DOMPURIFY_OPTIONS;
  const edits: Edit[] = [];
  const readOptions = new Set<string>();
  for (const { node, ancestors } of parseNodes) {
    if (node.type !== 'Identifier' || node.name !== 'cfg') continue;
    const parent = ancestors.at(-1);
    if (!parent || isPropertyName(node, parent)) continue;
    if (parent.type === 'MemberExpression' && parent.object === node && !parent.computed) {
      const option = (parent.property as AstNode).name as string;
      const grandparent = ancestors.at(-2);
      if (grandparent?.type === 'AssignmentExpression' && grandparent.left === parent) {
        return { error: `purify.es.mjs's _parseConfig writes cfg.${option}` };
      }
      readOptions.add(option);
      if (!kept.includes(option)) edits.push({ start: parent.start, end: parent.end, text: '(void 0)' });
      continue;
    }
    const callee = parent.type === 'CallExpression' ? ((parent.callee as AstNode).name as string) : '';
    const [first, key, fallback] = (parent.arguments as AstNode[] | undefined) ?? [];
    const reader = OPTION_READERS[callee];
    if (reader && first === node && key?.type === 'Literal' && typeof key.value === 'string') {
      readOptions.add(key.value);
      if (kept.includes(key.value)) continue;
      if (reader === 'fallback' && !fallback) return { error: `purify.es.mjs calls ${callee} without a fallback` };
      const text = reader === 'false' || !fallback ? 'false' : code.slice(fallback.start, fallback.end);
      edits.push({ start: parent.start, end: parent.end, text: `(${text})` });
      continue;
    }
    if (!isPlainUseOfCfg(node, parent)) {
      return {
        error: `purify.es.mjs's _parseConfig reads cfg in an unexpected way: ${code.slice(parent.start, parent.end).slice(0, 80)}`,
      };
    }
  }
  const unread = kept.find((option) => !readOptions.has(option));
  return unread ? { error: `purify.es.mjs's _parseConfig no longer reads ${unread}` } : edits;
}

/** The reads of `cfg` that read no option: its default, the object test, `clone(cfg)` and `freeze(cfg)`. */
function isPlainUseOfCfg(node: AstNode, parent: AstNode): boolean {
  if (parent.type === 'VariableDeclarator' || parent.type === 'AssignmentExpression') return true;
  if (parent.type === 'UnaryExpression') return parent.operator === '!' || parent.operator === 'typeof';
  if (parent.type !== 'CallExpression' || (parent.arguments as AstNode[]).length !== 1) return false;
  return ['clone', 'freeze'].includes((parent.callee as AstNode).name as string) && parent.callee !== node;
}

/**
 * The edits that turn each setting of {@link FOLDED_DOMPURIFY_SETTINGS} into its constant: its
 * declaration goes, each known write becomes an empty statement and each read its value. Refuses
 * a setting declared other than once as `let` in `createDOMPurify`, written other than by its
 * known writes, or read outside a function (where its value would not hold yet).
 */
function foldSettings(code: string, factory: AstNode, inFactory: PlacedNode[]): Edit[] | { error: string } {
  const settings = new Map(FOLDED_DOMPURIFY_SETTINGS.map((setting) => [setting.name, setting]));
  const edits: Edit[] = [];
  const found = new Map<string, string[]>();
  const declared = new Map<string, number>();
  for (const { node, ancestors } of inFactory) {
    const setting = settings.get(node.name as string);
    if (node.type !== 'Identifier' || !setting) continue;
    const parent = ancestors.at(-1);
    if (!parent || isPropertyName(node, parent)) continue;
    const name = setting.name;
    if (parent.type === 'VariableDeclarator' && parent.id === node) {
      const declaration = ancestors.at(-2);
      const isOwnLet =
        declaration?.type === 'VariableDeclaration' &&
        declaration.kind === 'let' &&
        (declaration.declarations as AstNode[]).length === 1 &&
        ancestors.at(-3) === factory.body;
      if (!isOwnLet || !declaration)
        return { error: `DOMPurify's ${name} is not declared as let ${name} = … in createDOMPurify` };
      declared.set(name, (declared.get(name) ?? 0) + 1);
      edits.push({ start: declaration.start, end: declaration.end, text: '' });
      continue;
    }
    if (parent.type === 'AssignmentExpression' && parent.left === node) {
      const statement = ancestors.at(-2);
      const text = code.slice(parent.start, parent.end).replace(/\s+/g, ' ');
      if (statement?.type !== 'ExpressionStatement' || !setting.writes.includes(text)) {
        return { error: `purify.es.mjs writes ${name} in an unexpected way: ${text.slice(0, 120)}` };
      }
      found.set(name, [...(found.get(name) ?? []), text]);
      edits.push({ start: statement.start, end: statement.end, text: ';' });
      continue;
    }
    if (!isRead(node, parent)) return { error: `purify.es.mjs writes or declares ${name} in an unexpected way` };
    const fromFactory = ancestors.slice(ancestors.indexOf(factory) + 1);
    if (!fromFactory.some((ancestor) => /Function/.test(ancestor.type))) {
      return { error: `purify.es.mjs reads ${name} outside a function of createDOMPurify` };
    }
    edits.push({ start: node.start, end: node.end, text: `(${setting.value})` });
  }
  for (const { name, writes } of FOLDED_DOMPURIFY_SETTINGS) {
    if (declared.get(name) !== 1)
      return { error: `purify.es.mjs declares ${name} ${declared.get(name) ?? 0} times, not once` };
    const written = found.get(name) ?? [];
    const missing = writes.find((write) => written.filter((text) => text === write).length !== 1);
    if (missing !== undefined) return { error: `purify.es.mjs no longer writes ${missing} exactly once` };
  }
  return edits;
}

/** Whether an identifier that is not a declaration or assignment target is a plain read (not `x++`, a parameter, a pattern). */
function isRead(node: AstNode, parent: AstNode): boolean {
  if (parent.type === 'UpdateExpression') return false;
  if (/Function/.test(parent.type) || /Pattern|RestElement/.test(parent.type)) return false;
  if ((parent.type === 'ForInStatement' || parent.type === 'ForOfStatement') && parent.left === node) return false;
  return !(parent.type === 'VariableDeclarator' && parent.id === node);
}
