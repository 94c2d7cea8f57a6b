import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'vite';
import { iifeViteConfig } from '../../scripts/build/build-iife.ts';

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
 * Builds a benchmark page entry into one minified IIFE with the shipped bundle's Vite settings
 * (es2022, production `process.env.NODE_ENV`) but only the given plugins, and returns its code,
 * so a page measures the code a host would run, not a dev build. The output goes to a temporary folder that is removed.
 */
export async function buildPageScript(options: BuildPageScriptOptions): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'agent-chat-bench-page-'));
  try {
    const config = iifeViteConfig({ rootDir: options.rootDir, entry: options.entry, fileName: 'page.js' });
    // A page keeps marked whole (the naive renderer calls marked.parse), so it takes only the extra plugins.
    // Nor is it the script-tag file: its parts are bundled in (imported), not loaded as part files.
    const define = { ...config.define, __SCRIPT_TAG_BUILD__: 'false' };
    await build({
      ...config,
      define,
      plugins: options.plugins ?? [],
      build: { ...config.build, outDir, emptyOutDir: true },
    });
    return await readFile(join(outDir, 'page.js'), 'utf8');
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
