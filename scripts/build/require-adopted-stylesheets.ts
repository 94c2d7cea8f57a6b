import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';

/** Lit's feature test, as minified in `@lit/reactive-element/css-tag.js`: `<flag>=<global>.ShadowRoot&&…`. */
const FEATURE_TEST =
  /([\w$]+)=([\w$]+)\.ShadowRoot&&\(void 0===\2\.ShadyCSS\|\|\2\.ShadyCSS\.nativeShadow\)&&"adoptedStyleSheets"in Document\.prototype&&"replace"in CSSStyleSheet\.prototype/g;

/**
 * Folds Lit's `supportsAdoptingStyleSheets` to `true` in the IIFE, which drops its fallback that
 * writes each stylesheet into a `<style>` element (about 160 B gzip). The widget promises a page
 * with `style-src 'self'` and no `unsafe-inline` (docs/embedding.md, "Content Security Policy"), so
 * that fallback could never work where the promise holds, and every browser the bundle targets
 * (es2022, `light-dark()`) has constructable stylesheets. The build also refuses an IIFE that
 * still creates a `<style>` element (`scripts/build/build-iife.ts`). Fails the build if Lit's
 * feature test is not found exactly once. The ESM build keeps Lit whole.
 */
export function requireAdoptedStyleSheets(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:require-adopted-stylesheets',
    dependencyFile: '/node_modules/@lit/reactive-element/css-tag.js',
    userModule: '/src/ui/styles/host.styles.ts',
    definedIn: 'scripts/build/require-adopted-stylesheets.ts',
    transform: foldAdoptedStyleSheetsTest,
    checkUse: () => null,
  });
}

/** The fold of {@link requireAdoptedStyleSheets} on the text of `css-tag.js`, or `{ error }` when its feature test changed shape. */
export function foldAdoptedStyleSheetsTest(code: string): string | { error: string } {
  const matches = code.match(FEATURE_TEST) ?? [];
  if (matches.length !== 1) {
    return {
      error: "@lit/reactive-element's css-tag.js no longer tests adoptedStyleSheets support once in the known form",
    };
  }
  return code.replace(FEATURE_TEST, '$1=!0');
}
