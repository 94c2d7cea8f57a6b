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
  return [requireProductionBuilds(), minifyCssTemplates(), minifyHtmlTemplates(), terserSecondPass()];
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

/**
 * The whitespace and comment minification of {@link minifyCssTemplates}, on one CSS text: also the
 * spaces around a child combinator (`>` never appears in the widget's values) and a number's
 * leading zero (`0.5` → `.5`).
 */
export function minifyCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/([:\s(,/])0\.(\d)/g, '$1.$2')
    .replace(/;}/g, '}')
    .trim();
}
