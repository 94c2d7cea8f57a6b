/**
 * The optional parts of the widget (docs/embedding.md, "Sibling files"): each ships in the script
 * tag's build as a file of its own beside `agent-chat.js`, loaded on first use with the integrity
 * of the same build, and as a chunk of the ESM build. This table is the one list of them: the
 * build's entries and size budgets (scripts/build/build-parts.ts), the integrity map that
 * `agent-chat.js` carries, the release's file list, and package.json's `exports` and `sideEffects`
 * (scripts/build/package-parts.ts; `npm run parts:sync`) all come from it. Pure data: the build
 * scripts read it under Node.
 *
 * A part named `name` lives in `src/parts/<name>/`: `<name>-file.ts` is the entry of its file
 * `agent-chat.<name>.js` (it sets the part's `window` global), `<name>-global.ts` types that global
 * (the `types` of its `exports` entry), and `<name>-on-demand.ts` is how the widget gets the part:
 * under `__SCRIPT_TAG_BUILD__` it loads the file (src/parts/load-part-file.ts), else it imports the
 * module, a chunk of the ESM build.
 */
export interface PartRow {
  /** The part's name: its folder `src/parts/<name>/` and its file `agent-chat.<name>.js`. */
  readonly name: string;
  /**
   * The part whose file carries this part's name and integrity and loads it (the tool cards load the
   * widgets' file); without it `agent-chat.js` does.
   */
  readonly carriedBy?: string;
  /**
   * The file holds a copy of Lit of its own, under the Trusted Types policy name
   * `agent-chat-<name>`. Without it the file holds no Lit (it renders with the widget's, or with
   * none), and the build fails when it creates a Trusted Types policy (lint refuses its Lit import
   * unless eslint.config.js's rule for the part files ignores it).
   */
  readonly ownsLit?: true;
  /** The file's gzip budget in bytes (1 KB = 1000 bytes): the build fails above it. */
  readonly gzipBudgetBytes?: number;
  /** The module typing the file's global, relative to `src/`, when not `parts/<name>/<name>-global.ts`. */
  readonly globalTypes?: string;
}

/** Every optional part, in the order of package.json's `exports`. */
export const PART_TABLE = [
  // Plain DOM, fetched on the first `mode: 'launcher'` mount, which builds it (embed/index.ts and
  // deferred-launcher.ts stand in for a loader); its global is typed with `window.AgentChat`'s.
  { name: 'launcher', globalTypes: 'agent-chat-global.ts' },
  // `<agent-chat-conversations>` with a copy of Lit of its own, so agent-chat.js pays nothing for it.
  { name: 'conversations', ownsLit: true },
  // The tool call and approval cards, on the first tool call or approval.
  { name: 'tool-cards' },
  // The declarative widgets (docs/widgets.md), on the first card that shows one.
  { name: 'widgets', carriedBy: 'tool-cards', gzipBudgetBytes: 8_000 },
  // Copy and the votes, on the first finished answer.
  { name: 'turn-actions' },
  // The attachment tray and the effort picker, when the composer first offers either.
  { name: 'composer-extras', gzipBudgetBytes: 4_000 },
  // highlight.js core and its common languages, on the first finished code block that names one.
  { name: 'highlight', gzipBudgetBytes: 25_000 },
] as const satisfies readonly PartRow[];

/** The name of an optional part. */
export type PartName = (typeof PART_TABLE)[number]['name'];

/** One part's built file: its name beside `agent-chat.js` and its SRI integrity. */
export interface PartFile {
  fileName: string;
  integrity: string;
}

/** The file name of part `name` beside `agent-chat.js`. */
export function partFileName(name: string): string {
  return `agent-chat.${name}.js`;
}
