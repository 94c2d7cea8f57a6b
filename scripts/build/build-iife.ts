import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type InlineConfig, type Plugin } from 'vite';
import type { PartFile } from '../../src/parts/part-table.ts';
import { iifePlugins } from './iife-plugins.ts';
import { createLicenceBanner } from './licence-banner.ts';

/** Options of {@link buildIife}. */
export interface BuildIifeOptions {
  rootDir: string;
  outDir: string;
  /** The embed entry, relative to `rootDir`. */
  entry: string;
  /** The single output file name, e.g. `agent-chat.js`. */
  fileName: string;
  /** Plugins of this file only, after the IIFE plugins (e.g. a sibling file's own policy name). */
  plugins?: Plugin[];
  /**
   * The part files this file loads on first use, already built (`__AGENT_CHAT_PART_FILES__`, read by
   * src/parts/load-part-file.ts): the parts of `agent-chat.js`, the widgets of the tool cards' file.
   */
  partFiles?: Readonly<Record<string, PartFile>>;
}

/** Code the strict-CSP promise forbids in the shipped file, with the reason shown on failure. */
const FORBIDDEN = [
  { pattern: /\beval\s*\(/, reason: 'eval() (blocked by script-src without unsafe-eval)' },
  { pattern: /\bnew\s+Function\s*\(/, reason: 'new Function() (blocked by script-src without unsafe-eval)' },
  { pattern: /\bimport\s*\(/, reason: 'a dynamic import() (the IIFE must not load lazy chunks)' },
  // Lit's stock fallback writes a <style> element where constructable stylesheets are missing;
  // every browser the es2022 build targets has them, so it never runs (docs/embedding.md).
] as const;

/**
 * Builds the embed as one self-contained, minified IIFE and checks that it is really one file
 * with no eval, no `new Function`, no lazy chunk and no CSS file beside it. Throws with the reason.
 */
export async function buildIife(options: BuildIifeOptions): Promise<void> {
  const before = new Set(await readdir(options.outDir).catch(() => []));
  const config = iifeViteConfig(options);
  await build({ ...config, build: { ...config.build, outDir: options.outDir, emptyOutDir: false } });
  const added = (await readdir(options.outDir)).filter((name) => !before.has(name) && name !== options.fileName);
  if (added.length > 0) {
    throw new Error(`The IIFE build must emit only ${options.fileName}, but it also wrote: ${added.join(', ')}`);
  }
  const code = await readFile(join(options.outDir, options.fileName), 'utf8');
  for (const rule of FORBIDDEN) {
    if (rule.pattern.test(code)) throw new Error(`${options.fileName} contains ${rule.reason}.`);
  }
}

/**
 * The Vite settings of the shipped IIFE, writing nowhere in particular: one minified es2022 file
 * named `fileName` with the IIFE plugins and the licence banner, no source map, no CSS file, no
 * lazy chunk. Shared by
 * {@link buildIife} and the benchmarks that must measure exactly the shipped build.
 */
export function iifeViteConfig(options: Omit<BuildIifeOptions, 'outDir'>): InlineConfig {
  return {
    configFile: false,
    root: options.rootDir,
    logLevel: 'warn',
    publicDir: false,
    plugins: [...iifePlugins(), ...(options.plugins ?? [])],
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      // The parts' loaders load their files, and their imports of the ESM build fall away (src/parts/part-table.ts).
      __SCRIPT_TAG_BUILD__: 'true',
      ...(options.partFiles ? { __AGENT_CHAT_PART_FILES__: JSON.stringify(options.partFiles) } : {}),
    },
    // Browser production builds whatever NODE_ENV says (under NODE_ENV=test Vite picks Lit's development build).
    resolve: { conditions: ['module', 'browser', 'production'] },
    build: {
      target: 'es2022',
      minify: true,
      sourcemap: false,
      cssCodeSplit: false,
      copyPublicDir: false,
      lib: { entry: options.entry, formats: ['iife'], name: 'AgentChatBundle', fileName: () => options.fileName },
      rolldownOptions: {
        output: {
          codeSplitting: false,
          // Added after minification, so the licence stays whatever the minifier keeps.
          postBanner: (chunk) => createLicenceBanner({ rootDir: options.rootDir, moduleIds: chunk.moduleIds }),
        },
      },
    },
  };
}
