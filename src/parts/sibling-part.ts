/**
 * A part of the widget that ships in a file of its own (docs/embedding.md, "Sibling files"): its
 * module is imported on first use (a chunk of the ESM build), or loaded the way the script tag's
 * build provides (its part file, src/parts/load-part-file.ts), then created once.
 */
export interface SiblingPart<Module, Part> {
  /** Makes `load` the way the part's module is got (the script tag's entry: its sibling file). */
  provide(load: () => Promise<Module>): void;
  /** The part once it has loaded; `undefined` before (then `load` gets it). */
  find(): Part | undefined;
  /** Loads the part once. Rejects when its file does not load (network, integrity, CSP); a later call tries again. */
  load(): Promise<Part>;
}

/** A sibling part whose module `importModule` imports by default and `create` turns into the part. */
export function createSiblingPart<Module, Part>(
  importModule: () => Promise<Module>,
  create: (module: Module) => Part,
): SiblingPart<Module, Part> {
  let loadModule = importModule;
  let loading: Promise<Part> | undefined;
  let loaded: Part | undefined;
  return {
    provide(load) {
      loadModule = load;
    },
    find: () => loaded,
    load() {
      loading ??= loadModule().then(
        (module) => (loaded = create(module)),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}
