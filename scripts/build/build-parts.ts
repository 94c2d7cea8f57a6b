import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PART_TABLE, partFileName, type PartFile, type PartRow } from '../../src/parts/part-table.ts';
import { buildIife } from './build-iife.ts';
import { describeFile } from './create-manifest.ts';
import { renameLitPolicy } from './rename-lit-policy.ts';

/** One part's file as the build wrote it, with its gzip budget when it has one. */
export interface BuiltPart {
  name: string;
  file: PartFile;
  gzipBudgetBytes?: number;
}

/** The entry of part `name`'s file, relative to the repository root. */
export function partEntry(name: string): string {
  return `src/parts/${name}/${name}-file.ts`;
}

/**
 * Builds the file of every part of src/parts/part-table.ts into `outDir`, each after the parts it
 * carries (whose names and integrities it then holds, `__AGENT_CHAT_PART_FILES__`). Returns the
 * parts `agent-chat.js` loads itself (the ones no other part carries), which its build then carries,
 * and every built part. Throws when a file that should hold no Lit creates a Trusted Types policy.
 */
export async function buildParts(options: {
  rootDir: string;
  outDir: string;
}): Promise<{ carried: Record<string, PartFile>; built: BuiltPart[] }> {
  const table: readonly PartRow[] = PART_TABLE;
  const built = new Map<string, PartFile>();
  const filesOf = (carrier: string | undefined): Record<string, PartFile> =>
    Object.fromEntries(table.filter((row) => row.carriedBy === carrier).map((row) => [row.name, built.get(row.name)!]));

  async function build(row: PartRow): Promise<void> {
    if (built.has(row.name)) return;
    for (const carried of table.filter((other) => other.carriedBy === row.name)) await build(carried);
    built.set(row.name, await buildPart(options, row, filesOf(row.name)));
  }
  for (const row of table) await build(row);
  return {
    carried: filesOf(undefined),
    built: table.map((row) => ({
      name: row.name,
      file: built.get(row.name)!,
      ...(row.gzipBudgetBytes === undefined ? {} : { gzipBudgetBytes: row.gzipBudgetBytes }),
    })),
  };
}

async function buildPart(
  options: { rootDir: string; outDir: string },
  row: PartRow,
  partFiles: Record<string, PartFile>,
): Promise<PartFile> {
  const fileName = partFileName(row.name);
  await buildIife({
    ...options,
    entry: partEntry(row.name),
    fileName,
    // A copy of Lit of its own gets a Trusted Types policy name of its own.
    plugins: row.ownsLit ? [renameLitPolicy(`agent-chat-${row.name}`)] : [],
    ...(Object.keys(partFiles).length > 0 ? { partFiles } : {}),
  });
  const bytes = await readFile(join(options.outDir, fileName));
  if (!row.ownsLit && bytes.includes('createPolicy')) {
    throw new Error(
      `${fileName} must hold no Lit (it renders with the widget's), yet it creates a Trusted Types policy`,
    );
  }
  return { fileName, integrity: describeFile(bytes).integrity };
}
