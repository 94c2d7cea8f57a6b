/**
 * `npm run build`: the ESM library with type declarations, the self-contained IIFE
 * `dist/agent-chat.js` with the files of the optional parts it loads on first use (the launcher,
 * the conversations panel, the code highlighter…: src/parts/part-table.ts), the locale pack, the browser tools IIFE `dist/agent-chat-tools.js` (loaded beside it by
 * pages that run tools), the Custom Elements Manifest `dist/custom-elements.json`, and
 * `dist/manifest.json` (size, gzip size, SRI integrity of every shipped file). Prints the size
 * table (not with `--quiet`) and exits non-zero when a shipped file passes its gzip budget.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEsm, type EsmEntry } from './build/build-esm.ts';
import { buildIife } from './build/build-iife.ts';
import { buildParts } from './build/build-parts.ts';
import { createCustomElementsManifest } from './build/create-custom-elements-manifest.ts';
import { createManifest } from './build/create-manifest.ts';
import { checkSizeBudget, IIFE_GZIP_BUDGET_BYTES, TOOLS_IIFE_GZIP_BUDGET_BYTES } from './build/check-size-budget.ts';
import { formatSizeTable } from './build/format-size-table.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(rootDir, 'dist');
// `--quiet` (npm start's build) prints only failures: the size table is `npm run build`'s.
const isQuiet = process.argv.includes('--quiet');
const IIFE_FILE = 'agent-chat.js';
/** Script-tag locale packs beside the IIFE: one small IIFE each, loaded only by pages that want the language. */
const LOCALE_PACKS = [{ entry: 'embed/locale-zh-cn.ts', fileName: 'agent-chat.zh-CN.js' }];
/** The second IIFE: the browser tool runner and its IndexedDB store (docs/embedding.md, "Browser tools"). */
const TOOLS_IIFE_FILE = 'agent-chat-tools.js';
/** The Custom Elements Manifest, named by package.json's `customElements` field. */
const CUSTOM_ELEMENTS_FILE = 'custom-elements.json';
const ESM_ENTRIES: EsmEntry[] = [
  { name: 'index', source: 'src/index.ts' },
  { name: 'define', source: 'src/define.ts' },
  { name: 'core', source: 'src/core/index.ts' },
  { name: 'server', source: 'src/server/index.ts' },
  { name: 'react', source: 'src/react/index.ts' },
  { name: 'locales/zh-cn', source: 'src/locales/zh-cn.ts' },
  { name: 'tools', source: 'src/tools/index.ts' },
  { name: 'highlight', source: 'src/highlight/index.ts' },
];

await main();

async function main(): Promise<void> {
  const missing = ESM_ENTRIES.filter((entry) => !existsSync(join(rootDir, entry.source)));
  if (missing.length > 0) {
    fail(`build: missing entry files: ${missing.map((entry) => entry.source).join(', ')}`);
  }
  await rm(distDir, { recursive: true, force: true });
  await mkdir(distDir, { recursive: true });
  await buildEsm({ rootDir, outDir: join(distDir, 'esm'), entries: ESM_ENTRIES });
  // The parts first: agent-chat.js carries their integrity and loads them on first use.
  const parts = await buildParts({ rootDir, outDir: distDir });
  await buildIife({ rootDir, outDir: distDir, entry: 'embed/index.ts', fileName: IIFE_FILE, partFiles: parts.carried });
  for (const pack of LOCALE_PACKS) await buildIife({ rootDir, outDir: distDir, ...pack });
  await buildIife({ rootDir, outDir: distDir, entry: 'embed/tools.ts', fileName: TOOLS_IIFE_FILE });
  execFileSync(
    process.execPath,
    [join(rootDir, 'node_modules/typescript/bin/tsc'), '-p', join(rootDir, 'tsconfig.build.json')],
    {
      cwd: rootDir,
      stdio: 'inherit',
    },
  );
  const customElements = await createCustomElementsManifest(rootDir);
  await writeFile(join(distDir, CUSTOM_ELEMENTS_FILE), `${JSON.stringify(customElements, null, 2)}\n`);

  const packageJson = JSON.parse(await readFile(join(rootDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const files = new Map<string, Uint8Array>();
  for (const path of await listFiles(distDir)) files.set(path, await readFile(join(distDir, path)));
  const manifest = createManifest({ name: packageJson.name, version: packageJson.version, files });
  await writeFile(join(distDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (!isQuiet) console.log(formatSizeTable(manifest));

  const budgets: [string, number][] = [
    [IIFE_FILE, IIFE_GZIP_BUDGET_BYTES],
    [TOOLS_IIFE_FILE, TOOLS_IIFE_GZIP_BUDGET_BYTES],
    ...parts.built.flatMap(({ file, gzipBudgetBytes }): [string, number][] =>
      gzipBudgetBytes === undefined ? [] : [[file.fileName, gzipBudgetBytes]],
    ),
  ];
  for (const [fileName, budgetBytes] of budgets) {
    const iife = manifest.files[fileName];
    if (!iife) fail(`build: ${fileName} was not produced`);
    const budget = checkSizeBudget({ name: fileName, file: iife, budgetBytes });
    if (!budget.isWithin) {
      fail(
        `build: ${budget.message}: ${iife.gzipBytes - budgetBytes} bytes over; \`npx tsx bench/bundle-breakdown.ts\` shows what each module costs; move rarely used parts to files of their own (src/parts/part-table.ts) rather than rewrite a dependency`,
      );
    }
    if (!isQuiet) console.log(`${budget.message}, ${budgetBytes - iife.gzipBytes} bytes to spare`);
  }
}

/** Every file under `dir`, as `/`-separated paths relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
