import type { Plugin } from 'vite';
import { cutDomPurifyNameChecks } from './cut-dompurify-name-checks.ts';
import { cutDomPurifyNodeInput } from './cut-dompurify-node-input.ts';
import { dropDomPurifyFallbacks } from './drop-dompurify-fallbacks.ts';
import { dropLitDecoratorSupport } from './drop-lit-decorator-support.ts';
import { dropUnusedMarkedOtherRules } from './drop-unused-marked-other-rules.ts';
import { foldDomPurifyConfig } from './fold-dompurify-config.ts';
import { foldLitDefaultConverter } from './fold-lit-default-converter.ts';
import { inlineMarkedOptions } from './inline-marked-options.ts';
import { markDomPurifyPureCalls } from './mark-dompurify-pure-calls.ts';
import { requireAdoptedStyleSheets } from './require-adopted-stylesheets.ts';
import { requireProductionBuilds } from './require-production-builds.ts';
import { terserSecondPass } from './terser-second-pass.ts';
import { trimDomPurifyDefaults } from './trim-dompurify-defaults.ts';

/** The plugins of every build of the script-tag IIFE (the shipped file and the benchmarks' copies). */
export function iifePlugins(): Plugin[] {
  return [
    requireProductionBuilds(),
    dropLazyDefine(),
    dropMarkedGlobalInstance(),
    inlineMarkedOptions(),
    dropUnusedMarkedOtherRules(),
    trimDomPurifyDefaults(),
    cutDomPurifyNameChecks(),
    dropDomPurifyFallbacks(),
    cutDomPurifyNodeInput(),
    foldDomPurifyConfig(),
    markDomPurifyPureCalls(),
    requireAdoptedStyleSheets(),
    dropLitDecoratorSupport(),
    foldLitDefaultConverter(),
    minifyCssTemplates(),
    terserSecondPass(),
  ];
}

/** The lazy `define.ts` fallback in `src/mount.ts`, exactly as written there. */
const LAZY_DEFINE = "import('./define.ts')";

/**
 * Drops `mount`'s lazy `import('./define.ts')` from the IIFE. The IIFE's entry imports
 * `define.ts` statically, so the fallback can never run there, and a dynamic import (even one
 * inlined) makes the bundler wrap every module in a lazy initializer (about 1.5 KB gzip). Fails the
 * build if `src/mount.ts` no longer contains the expected call, so this cannot silently rot.
 */
export function dropLazyDefine(): Plugin {
  return {
    name: 'agent-chat:drop-lazy-define',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/mount.ts')) return null;
      if (!code.includes(LAZY_DEFINE)) {
        this.error(`src/mount.ts no longer contains ${LAZY_DEFINE}; update scripts/build/iife-plugins.ts`);
      }
      return { code: code.replace(LAZY_DEFINE, 'Promise.resolve()'), map: null };
    },
  };
}

/**
 * Minifies the CSS inside Lit's `css` tagged templates (comments and insignificant whitespace),
 * which the JavaScript minifier leaves as written. Only transforms that cannot change meaning:
 * whitespace around `{ } ; ,` and runs of whitespace; spaces before `:` are kept (`a :hover`).
 */
export function minifyCssTemplates(): Plugin {
  return {
    name: 'agent-chat:minify-css-templates',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || !code.includes('css`')) return null;
      const next = code.replace(/\bcss`([^`]*)`/g, (_whole, body: string) => `css\`${minifyCss(body)}\``);
      return next === code ? null : { code: next, map: null };
    },
  };
}

/** The whitespace and comment minification of {@link minifyCssTemplates}, on one CSS text. */
export function minifyCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
}

/** marked's exports the widget may use: its classes and defaults, none of the global `marked` instance. */
const MARKED_KEPT_EXPORTS = [
  'Hooks',
  'Lexer',
  'Marked',
  'Parser',
  'Renderer',
  'TextRenderer',
  'Tokenizer',
  'defaults',
  'getDefaults',
];

/**
 * Drops marked's ready-made global instance (the `marked()` function, `marked.use`, `setOptions`
 * and their aliases) from the IIFE. marked ships as one flat module whose last statements build
 * that instance, which keeps every class alive whether used or not; the widget never touches it
 * (it lexes with `new Lexer(getDefaults())` and renders the tokens with its own walker), so cutting those
 * statements only lets the bundler drop what is unused (about 1.5 KB gzip). The ESM build keeps
 * marked external and whole. Fails the build if marked's file no longer has the expected shape.
 */
export function dropMarkedGlobalInstance(): Plugin {
  return {
    name: 'agent-chat:drop-marked-global-instance',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/node_modules\/marked\/lib\/marked\.esm\.js$/.test(id)) return null;
      const result = cutMarkedGlobalInstance(code);
      if (typeof result !== 'string') this.error(`${result.error}; update scripts/build/iife-plugins.ts`);
      return { code: result, map: null };
    },
  };
}

/**
 * The cut of {@link dropMarkedGlobalInstance} on the text of `marked.esm.js`: everything from the
 * statement `var <instance>=new <Marked>;` up to the final `export{…}`, which is rewritten to the
 * kept exports. Returns `{ error }` instead when the text does not have that shape.
 */
export function cutMarkedGlobalInstance(code: string): string | { error: string } {
  const exportMatch = /export\{([^}]*)\};?\s*(?:\/\/# sourceMappingURL=\S*\s*)?$/.exec(code);
  if (!exportMatch) return { error: 'marked.esm.js no longer ends with one export{…} statement' };
  const locals = new Map<string, string>();
  for (const specifier of (exportMatch[1] ?? '').split(',')) {
    const [local = '', exported = local] = specifier.trim().split(/\s+as\s+/);
    locals.set(exported, local);
  }
  const markedClass = locals.get('Marked');
  const instanceStart =
    markedClass === undefined ? -1 : code.search(new RegExp(`var [\\w$]+=new ${escapeRegExp(markedClass)};`));
  if (instanceStart < 0)
    return { error: 'marked.esm.js no longer creates its global instance with `var x=new Marked;`' };
  const cut = code.slice(instanceStart, exportMatch.index);
  const kept: string[] = [];
  for (const name of MARKED_KEPT_EXPORTS) {
    const local = locals.get(name);
    if (local === undefined) return { error: `marked.esm.js no longer exports ${name}` };
    if (new RegExp(`(?:^|[\\s;,])(?:var |function )?${escapeRegExp(local)}[=(]`).test(cut)) {
      return { error: `marked.esm.js now defines ${name} after its global instance` };
    }
    kept.push(local === name ? name : `${local} as ${name}`);
  }
  return `${code.slice(0, instanceStart)}export{${kept.join(',')}};\n`;
}

/** `text` as a pattern matching itself (minified identifiers may contain `$`). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
