import type { Plugin } from 'vite';
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
 * gzip). Fails the build if marked's defaults or its option reads change shape, or if any module of
 * ours uses marked's values other than through that one lexer. The ESM build keeps marked whole.
 */
export function inlineMarkedOptions(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:inline-marked-options',
    dependencyFile: '/node_modules/marked/lib/marked.esm.js',
    userModule: MARKED_USER,
    definedIn: 'scripts/build/inline-marked-options.ts',
    transform: foldMarkedOptionReads,
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
