// Types for the two modules of `@custom-elements-manifest/analyzer` the build calls; the package
// ships no declarations for them (its own index.d.ts declares only the plugin interfaces).

declare module '@custom-elements-manifest/analyzer/src/create.js' {
  import type { Plugin } from '@custom-elements-manifest/analyzer';
  import type { Package } from 'custom-elements-manifest/schema';

  /** Analyzes parsed source files (made with the analyzer's own TypeScript) into a manifest. */
  export function create(options: {
    modules: unknown[];
    plugins?: Plugin[];
    context?: Record<string, unknown>;
  }): Package;
}

declare module '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js' {
  import type { Plugin } from '@custom-elements-manifest/analyzer';

  /** The analyzer's LitElement support (`static properties`, reactive state left out of attributes). */
  export function litPlugin(): Plugin[];
}
