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
  return [
    requireProductionBuilds(),
    dropLazyImports(),
    minifyCssTemplates(),
    minifyHtmlTemplates(),
    terserSecondPass(),
  ];
}

/**
 * The dynamic imports of our own modules that the script-tag IIFE drops, exactly as written in
 * their files, each with what replaces it. The IIFE never needs them: its entry imports
 * `define.ts` statically and provides the tool cards' sibling file (embed/index.ts). And a
 * dynamic import (even one inlined) makes the bundler wrap every module in a lazy initializer
 * (about 1.5 KB gzip), or here would pull the tool cards back into `agent-chat.js`.
 */
const LAZY_IMPORTS: ReadonlyArray<{ file: string; call: string; replacement: string }> = [
  { file: '/src/mount.ts', call: "import('./define.ts')", replacement: 'Promise.resolve()' },
  {
    file: '/src/tool-cards-on-demand.ts',
    call: "import('./ui/tool-cards.ts')",
    replacement: "Promise.reject(new Error('AgentChat: the tool cards are a sibling file'))",
  },
  {
    file: '/src/ui/tool-card/widgets-on-demand.ts',
    call: "import('../widgets.ts')",
    replacement: "Promise.reject(new Error('AgentChat: the widgets are a sibling file'))",
  },
  {
    file: '/src/composer-extras-on-demand.ts',
    call: "import('./ui/composer-extras.ts')",
    replacement: "Promise.reject(new Error('AgentChat: the composer extras are a sibling file'))",
  },
  {
    file: '/src/turn-actions-on-demand.ts',
    call: "import('./ui/turn-actions.ts')",
    replacement: "Promise.reject(new Error('AgentChat: the turn actions are a sibling file'))",
  },
];

/**
 * Replaces each of {@link LAZY_IMPORTS} in the IIFE. Fails the build if a file no longer contains
 * its expected call, so this cannot silently rot.
 */
export function dropLazyImports(): Plugin {
  return {
    name: 'agent-chat:drop-lazy-imports',
    enforce: 'pre',
    transform(code, id) {
      const lazies = LAZY_IMPORTS.filter(({ file }) => id.endsWith(file));
      if (lazies.length === 0) return null;
      let transformed = code;
      for (const lazy of lazies) {
        if (!transformed.includes(lazy.call)) {
          this.error(`${lazy.file.slice(1)} no longer contains ${lazy.call}; update scripts/build/iife-plugins.ts`);
        }
        transformed = transformed.replace(lazy.call, lazy.replacement);
      }
      return { code: transformed, map: null };
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
