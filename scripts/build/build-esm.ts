import { build } from 'vite';

/** One public ESM entry: the `exports` subpath it serves and its source file. */
export interface EsmEntry {
  /** Output file name without extension (`index` → `dist/esm/index.js`). */
  name: string;
  /** Source path relative to the repository root. */
  source: string;
}

/** Options of {@link buildEsm}. */
export interface BuildEsmOptions {
  rootDir: string;
  outDir: string;
  entries: readonly EsmEntry[];
}

/** Packages that stay imports in the ESM build: a product's bundler dedupes them (`@lit/react` and `react` included). */
const EXTERNAL = [
  /^lit(\/.*)?$/,
  /^@lit\//,
  /^lit-html(\/.*)?$/,
  /^lit-element(\/.*)?$/,
  /^marked$/,
  /^dompurify$/,
  /^highlight\.js\//,
  /^ajv(-formats)?$/,
  /^@ag-ui\//,
  /^@ai-sdk\//,
  /^zod(\/.*)?$/,
  /^react(\/.*)?$/,
  /^better-sqlite3$/,
  /^@redis\/client$/,
  /^pg$/,
  /^prom-client$/,
  /^@opentelemetry\/api$/,
  /^@modelcontextprotocol\/sdk(\/.*)?$/,
  /^node:/,
];

/**
 * Builds the ESM library (one file per entry plus shared chunks) with `lit`, `marked`,
 * `dompurify`, `highlight.js` (the `highlight` entry only), `ajv`, `@ag-ui/*`, `@ai-sdk/*` (server only), `zod`, `better-sqlite3`, `@redis/client`, `pg`, `prom-client`,
 * `@opentelemetry/api` and `@modelcontextprotocol/sdk` (server only), `react` and Node built-ins
 * left external. Rejects when Vite fails.
 */
export async function buildEsm(options: BuildEsmOptions): Promise<void> {
  await build({
    configFile: false,
    root: options.rootDir,
    logLevel: 'warn',
    publicDir: false,
    // The parts import their modules as chunks of their own (src/parts/part-table.ts).
    define: { __SCRIPT_TAG_BUILD__: 'false' },
    build: {
      outDir: options.outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      sourcemap: false,
      copyPublicDir: false,
      lib: {
        entry: Object.fromEntries(options.entries.map((entry) => [entry.name, entry.source])),
        formats: ['es'],
      },
      rolldownOptions: {
        external: EXTERNAL,
        output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  });
}
