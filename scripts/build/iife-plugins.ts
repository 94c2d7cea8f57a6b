import type { Plugin } from 'vite';
import { minifyHtmlTemplates } from './minify-html-templates.ts';
import { requireProductionBuilds } from './require-production-builds.ts';
import { terserSecondPass } from './terser-second-pass.ts';

/**
 * The plugins of every build of the script-tag IIFE (the shipped file and the benchmarks' copies).
 * They check how Lit resolves, rewrite our own source and minify: none of them touches the code of
 * lit, marked or dompurify, which ship as their authors publish them (docs/benchmarks.md, "Size").
 */
export function iifePlugins(): Plugin[] {
  return [requireProductionBuilds(), dropLazyDefine(), minifyCssTemplates(), minifyHtmlTemplates(), terserSecondPass()];
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
