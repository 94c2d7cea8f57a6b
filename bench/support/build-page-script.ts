import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'vite';

/** Options of {@link buildPageScript}. */
export interface BuildPageScriptOptions {
  /** The repository root (module resolution starts here). */
  rootDir: string;
  /** The entry module, relative to `rootDir`. */
  entry: string;
  /** Extra Vite plugins, e.g. one that provides a virtual entry. */
  plugins?: Plugin[];
}

/**
 * Builds a benchmark page entry into one minified IIFE with the same settings as the shipped
 * bundle (es2022, production `process.env.NODE_ENV`) and returns its code, so a page measures the
 * code a host would run, not a dev build. The output goes to a temporary folder that is removed.
 */
export async function buildPageScript(options: BuildPageScriptOptions): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'agent-chat-bench-page-'));
  try {
    await build({
      configFile: false,
      root: options.rootDir,
      logLevel: 'warn',
      publicDir: false,
      plugins: options.plugins ?? [],
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir,
        emptyOutDir: true,
        target: 'es2022',
        minify: true,
        sourcemap: false,
        copyPublicDir: false,
        lib: { entry: options.entry, formats: ['iife'], name: 'AgentChatBenchPage', fileName: () => 'page.js' },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    return await readFile(join(outDir, 'page.js'), 'utf8');
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
