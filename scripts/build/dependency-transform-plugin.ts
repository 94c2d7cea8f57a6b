import type { Plugin } from 'vite';

/** What {@link createDependencyTransformPlugin} needs to know about one dependency transform. */
export interface DependencyTransform {
  /** The plugin's name, e.g. `agent-chat:inline-marked-options`. */
  name: string;
  /** The dependency's file that is transformed, e.g. `/node_modules/marked/lib/marked.esm.js`. */
  dependencyFile: string;
  /** The one module of ours that uses the dependency, e.g. `/src/ui/markdown/render-tokens-to-html.ts`. */
  userModule: string;
  /** The file that defines the transform, named in every failure. */
  definedIn: string;
  /** Transforms the dependency's text, or says why its shape no longer allows it. */
  transform(code: string): string | { error: string };
  /** Why a module of ours (`id`) breaks the transform's assumption, or `null`. */
  checkUse(code: string, id: string): string | null;
}

/**
 * Builds the Vite plugin of a dependency transform: rewrites `dependencyFile`, checks every module
 * of ours under `/src/` with `checkUse`, and fails the build loudly when either refuses, or when
 * `userModule` was bundled but `dependencyFile` never came through (the dependency moved files).
 */
export function createDependencyTransformPlugin(options: DependencyTransform): Plugin {
  let isTransformed = false;
  let isUsed = false;
  return {
    name: options.name,
    enforce: 'pre',
    transform(code, id) {
      if (id.endsWith(options.dependencyFile)) {
        const result = options.transform(code);
        if (typeof result !== 'string') this.error(`${result.error}; update ${options.definedIn}`);
        isTransformed = true;
        return { code: result, map: null };
      }
      if (!/\/src\/.*\.ts$/.test(id)) return null;
      const error = options.checkUse(code, id);
      if (error) this.error(`${error}; update ${options.definedIn} or the module`);
      if (id.endsWith(options.userModule)) isUsed = true;
      return null;
    },
    buildEnd(error) {
      if (!error && isUsed && !isTransformed) {
        this.error(
          `${options.dependencyFile} was never bundled although ${options.userModule} was; update ${options.definedIn}`,
        );
      }
    },
  };
}
