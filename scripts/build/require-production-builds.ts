import type { Plugin } from 'vite';

/** Lit's packages, each of which also ships a development and a Node.js build beside its browser one. */
const LIT_PACKAGE = /\/node_modules\/(lit|lit-html|lit-element|@lit\/reactive-element)\/(?:node\/)?(development\/)?/;

/**
 * Fails the build when a module of Lit resolves to its development build (larger, with dev-mode
 * warnings) or its Node.js build instead of the minified browser build; Vite picks the browser
 * production files through its `browser` and `production` resolve conditions, and this keeps a
 * changed condition from slipping through. DOMPurify and marked ship one ESM build each.
 */
export function requireProductionBuilds(): Plugin {
  return {
    name: 'agent-chat:require-production-builds',
    load(id) {
      const error = describeNonProductionModule(id);
      if (error) this.error(`${error}; check resolve.conditions in scripts/build/build-iife.ts`);
      return null;
    },
  };
}

/** Why the module `id` is not a browser production build of Lit, or `null` when it is or is not Lit. */
export function describeNonProductionModule(id: string): string | null {
  const match = LIT_PACKAGE.exec(id);
  if (!match) return null;
  const [whole, name, development] = match;
  if (whole.includes('/node/')) return `${name} resolved to its Node.js build (${id})`;
  return development ? `${name} resolved to its development build (${id})` : null;
}
