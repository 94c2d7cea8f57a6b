import { parseSync, type Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';

/** marked's own defaults, exactly as `getDefaults()` returns them in the installed marked. */
const EXPECTED_DEFAULTS =
  '{async:!1,breaks:!1,extensions:null,gfm:!0,hooks:null,pedantic:!1,renderer:null,silent:!1,tokenizer:null,walkTokens:null}';

/** The option reads folded to the value `getDefaults()` gives them. */
const INLINED_READS = [
  { read: 'this.options.pedantic', value: '!1' },
  { read: 'this.options.breaks', value: '!1' },
  { read: 'this.options.gfm', value: '!0' },
  { read: 'this.options.extensions', value: 'null' },
  { read: 'this.options.hooks', value: 'null' },
] as const;

/** The one module of ours that may use marked's values, and the one lexer it may build. */
const MARKED_USER = '/src/ui/markdown/render-tokens-to-html.ts';
const MARKED_USER_IMPORT = "import { getDefaults, Lexer } from 'marked';";
const MARKED_USER_LEXER = 'new Lexer(getDefaults())';

/**
 * Folds marked's lexer options to the constants they always have in the IIFE. The widget builds
 * its only lexer as `new Lexer(getDefaults())` (`render-tokens-to-html.ts`) and never changes its
 * options, so `pedantic`, `breaks`, `extensions` and `hooks` are always off and `gfm` on; with the
 * reads folded the minifier drops the pedantic, breaks and extension branches (about 390 bytes
 * gzip), and {@link dropUnusedMarkedRules} then cuts the pedantic and breaks rule tables those
 * branches read, which marked builds at load (about 400 bytes gzip more). Fails the build if marked's
 * defaults, its option reads or its rule tables change shape, or if any module of ours uses marked's
 * values other than through that one lexer. The ESM build keeps marked whole.
 */
export function inlineMarkedOptions(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:inline-marked-options',
    dependencyFile: '/node_modules/marked/lib/marked.esm.js',
    userModule: MARKED_USER,
    definedIn: 'scripts/build/inline-marked-options.ts',
    transform: (code) => {
      const folded = foldMarkedOptionReads(code);
      return typeof folded === 'string' ? dropUnusedMarkedRules(folded) : folded;
    },
    checkUse: checkMarkedUse,
  });
}

/**
 * The fold of {@link inlineMarkedOptions} on the text of `marked.esm.js`: every read in
 * `INLINED_READS` replaced by its constant. Returns `{ error }` when `getDefaults()` no longer
 * returns the expected object, a read is missing, or an option is still read another way.
 */
export function foldMarkedOptionReads(code: string): string | { error: string } {
  const exportMatch = /export\{([^}]*)\}/.exec(code);
  const getDefaults = /(?:^|,)\s*([\w$]+) as getDefaults\s*(?:,|$)/.exec(exportMatch?.[1] ?? '')?.[1];
  if (getDefaults === undefined) return { error: 'marked.esm.js no longer exports getDefaults' };
  if (!code.includes(`function ${getDefaults}(){return${EXPECTED_DEFAULTS}}`)) {
    return { error: `marked's getDefaults() no longer returns ${EXPECTED_DEFAULTS}` };
  }
  let folded = code;
  for (const { read, value } of INLINED_READS) {
    if (!folded.includes(read)) return { error: `marked.esm.js no longer reads ${read}` };
    folded = folded.replaceAll(read, value);
  }
  for (const { read } of INLINED_READS) {
    const option = read.slice('this.options.'.length);
    if (new RegExp(`options\\.${option}\\b`).test(folded)) {
      return { error: `marked.esm.js reads the ${option} option other than as ${read}` };
    }
  }
  return folded;
}

/**
 * Why a module of ours breaks {@link inlineMarkedOptions}'s assumption, or `null`: only
 * `render-tokens-to-html.ts` may import marked's values, exactly `getDefaults` and `Lexer`, and it
 * may build one lexer, `new Lexer(getDefaults())`, and touch no lexer's options.
 */
export function checkMarkedUse(code: string, id: string): string | null {
  const valueImports = [...code.matchAll(/^import\s+(?!type\s)[^;]*from\s+'marked(?:\/[^']*)?';/gm)].map(
    (match) => match[0],
  );
  if (!id.endsWith(MARKED_USER)) {
    return valueImports.length === 0 ? null : `${id} imports marked's values; only ${MARKED_USER} may`;
  }
  if (valueImports.length !== 1 || valueImports[0] !== MARKED_USER_IMPORT) {
    return `${MARKED_USER} must import marked's values exactly as ${MARKED_USER_IMPORT}`;
  }
  if (code.split(MARKED_USER_LEXER).length !== 2 || (code.match(/\bLexer\b/g) ?? []).length !== 2) {
    return `${MARKED_USER} must build exactly one lexer, as ${MARKED_USER_LEXER}`;
  }
  if (/\.options\b/.test(code)) return `${MARKED_USER} must not touch a lexer's options`;
  return null;
}

interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** The rule sets of marked's two rule tables (`{ normal, gfm, pedantic }` for blocks, plus `breaks` inline) that folded options never pick. */
const UNUSED_RULE_SETS = ['pedantic', 'breaks'];

/**
 * Cuts marked's pedantic and breaks rule sets from folded `marked.esm.js` text: the `pedantic`
 * (and `breaks`) entries of its two rule tables and the declarations of the rule sets they name,
 * which marked builds at load. Returns `{ error }` unless there are exactly those two tables, each
 * rule set they drop is declared once and used nowhere else, and every read of a dropped entry
 * sits in a branch the option fold made dead (`!1 ? … : …`).
 */
export function dropUnusedMarkedRules(code: string): string | { error: string } {
  const parsed = parseSync('marked.esm.js', code);
  if (parsed.errors.length > 0) return { error: 'marked.esm.js does not parse' };
  const nodes: Array<{ node: AstNode; ancestors: AstNode[] }> = [];
  const visit = (node: AstNode, ancestors: AstNode[]): void => {
    nodes.push({ node, ancestors });
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isAstNode(child)) visit(child, [...ancestors, node]);
      }
    }
  };
  visit(parsed.program as unknown as AstNode, []);
  const keyOf = (property: AstNode): string | undefined =>
    (property.key as AstNode | undefined)?.name as string | undefined;
  const tables = nodes.filter(({ node }) => {
    if (node.type !== 'ObjectExpression') return false;
    const keys = (node.properties as AstNode[]).map(keyOf).join(',');
    return keys === 'normal,gfm,pedantic' || keys === 'normal,gfm,breaks,pedantic';
  });
  if (tables.length !== 2)
    return { error: 'marked.esm.js no longer has its two rule tables {normal, gfm, …, pedantic}' };
  const cuts: Array<[number, number]> = [];
  const tableNames: string[] = [];
  const dropped: string[] = [];
  for (const { node, ancestors } of tables) {
    const declarator = ancestors.at(-1);
    if (declarator?.type !== 'VariableDeclarator') return { error: 'a marked rule table is not a variable of its own' };
    tableNames.push((declarator.id as AstNode).name as string);
    const properties = node.properties as AstNode[];
    for (const [index, property] of properties.entries()) {
      if (!UNUSED_RULE_SETS.includes(keyOf(property) ?? '')) continue;
      const value = property.value as AstNode;
      if (value.type !== 'Identifier') return { error: 'a dropped marked rule set is not a variable' };
      dropped.push(value.name as string);
      cuts.push([(properties[index - 1] as AstNode).end, property.end]);
    }
  }
  for (const name of dropped) {
    const uses = nodes.filter(
      ({ node, ancestors }) =>
        node.type === 'Identifier' && node.name === name && !isPropertyName(node, ancestors.at(-1)),
    );
    const declarators = uses.filter(({ ancestors }) => ancestors.at(-1)?.type === 'VariableDeclarator');
    const owner = declarators[0]?.ancestors.at(-1);
    const declaration = declarators[0]?.ancestors.at(-2);
    if (uses.length !== 2 || declarators.length !== 1 || !owner || declaration?.type !== 'VariableDeclaration') {
      return { error: `marked's rule set ${name} is used besides its rule table` };
    }
    const siblings = declaration.declarations as AstNode[];
    const index = siblings.indexOf(owner);
    if (index < 1) return { error: `marked's rule set ${name} is not declared after another variable` };
    cuts.push([(siblings[index - 1] as AstNode).end, owner.end]);
  }
  for (const { node, ancestors } of nodes) {
    if (node.type !== 'MemberExpression' || node.computed) continue;
    const object = node.object as AstNode;
    const property = (node.property as AstNode).name as string;
    if (!tableNames.includes(object.name as string) || !UNUSED_RULE_SETS.includes(property)) continue;
    const chain = [...ancestors, node];
    const isDead = chain.some(
      (ancestor, index) =>
        ancestor.type === 'ConditionalExpression' &&
        code.slice((ancestor.test as AstNode).start, (ancestor.test as AstNode).end) === '!1' &&
        chain[index + 1] === ancestor.consequent,
    );
    if (!isDead)
      return { error: `marked.esm.js reads ${object.name as string}.${property} outside a folded-away branch` };
  }
  let trimmed = code;
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) trimmed = trimmed.slice(0, start) + trimmed.slice(end);
  return trimmed;
}

function isAstNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/** Whether an identifier is a name rather than a variable: `x.name` or `{ name: … }`. */
function isPropertyName(node: AstNode, parent: AstNode | undefined): boolean {
  if (parent?.type === 'MemberExpression') return parent.property === node && !parent.computed;
  return parent?.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand;
}
