import { PART_TABLE, partFileName, type PartRow } from '../../src/parts/part-table.ts';

/** One `exports` entry of a script-tag file: its types and the file. */
export interface ScriptFileExport {
  types: string;
  default: string;
}

/** What package.json holds that the part table decides. */
export interface PackageParts {
  exports: Record<string, unknown>;
  sideEffects: string[];
}

/** A part's `exports` subpath, e.g. `./agent-chat.highlight.js`: its file name. */
const PART_SUBPATH = /^\.\/agent-chat\.[a-z][a-z-]*\.js$/;
/** A part's entries in `sideEffects`: its file's entry and the file. Locale packs (`zh-CN`) have capitals. */
const PART_SIDE_EFFECT = /^\.\/(src\/parts\/[^/]+\/[^/]+-file\.ts|dist\/agent-chat\.[a-z][a-z-]*\.js)$/;

/** The `exports` entries of the parts of `table`, keyed by subpath, in table order. */
export function partExports(table: readonly PartRow[] = PART_TABLE): Record<string, ScriptFileExport> {
  return Object.fromEntries(
    table.map((row) => {
      const types = (row.globalTypes ?? `parts/${row.name}/${row.name}-global.ts`).replace(/\.ts$/, '.d.ts');
      const fileName = partFileName(row.name);
      return [`./${fileName}`, { types: `./dist/types/${types}`, default: `./dist/${fileName}` }];
    }),
  );
}

/** The `sideEffects` entries of the parts of `table`: each file's entry (it sets a global) and the file. */
export function partSideEffects(table: readonly PartRow[] = PART_TABLE): string[] {
  return table.flatMap((row) => [`./src/parts/${row.name}/${row.name}-file.ts`, `./dist/${partFileName(row.name)}`]);
}

/**
 * `pkg`'s `exports` and `sideEffects` with the parts' entries as `table` makes them: where the
 * first part entry stood (else before `./agent-chat-tools.js`, or at the end), in table order;
 * entries of parts no longer in the table are dropped, and everything else keeps its place.
 */
export function withPackageParts<Package extends PackageParts>(
  pkg: Package,
  table: readonly PartRow[] = PART_TABLE,
): Package {
  const exportsEntries = placeParts(
    Object.entries(pkg.exports),
    Object.entries(partExports(table)),
    ([subpath]) => PART_SUBPATH.test(subpath),
    ([subpath]) => subpath === './agent-chat-tools.js',
  );
  const sideEffects = placeParts(
    pkg.sideEffects,
    partSideEffects(table),
    (path) => PART_SIDE_EFFECT.test(path),
    (path) => path === './dist/agent-chat-tools.js',
  );
  return { ...pkg, exports: Object.fromEntries(exportsEntries), sideEffects };
}

/** `entries` with those `isPart` says replaced by `parts`, placed at the first of them (else before `isAfter`'s, else last). */
function placeParts<Entry>(
  entries: readonly Entry[],
  parts: readonly Entry[],
  isPart: (entry: Entry) => boolean,
  isAfter: (entry: Entry) => boolean,
): Entry[] {
  const kept = entries.filter((entry) => !isPart(entry));
  const first = entries.findIndex(isPart);
  // Everything before the first part entry is kept, so it stands at the same index in `kept`.
  let at = first === -1 ? kept.findIndex(isAfter) : first;
  if (at === -1) at = kept.length;
  return [...kept.slice(0, at), ...parts, ...kept.slice(at)];
}
