import { minify, type MinifyOptions } from 'terser';
import type { Plugin } from 'vite';

/**
 * Terser's settings for the pass after Vite's own (Oxc) minifier, as measured on the IIFE
 * (docs/benchmarks.md). Only Terser's default, behaviour-preserving compressions run (no
 * `unsafe*`, no `pure_getters: true`); `inline: false` keeps single-use functions where they are,
 * which gzip rewards, and a third pass was measured to lose bytes. Comments kept: `/*!` and
 * `@license`/`@preserve` ones, so a licence banner survives the pass.
 */
export const TERSER_SECOND_PASS_OPTIONS = {
  ecma: 2020,
  compress: { passes: 2, inline: false },
  mangle: true,
  format: { comments: 'some' },
} as const satisfies MinifyOptions;

/** What {@link runTerserSecondPass} takes: the chunk's code and, when the build maps, its map. */
export interface TerserSecondPassInput {
  code: string;
  /** The chunk's source map (JSON text or object), composed through the pass when given. */
  map?: string | object | null;
}

/**
 * Runs {@link TERSER_SECOND_PASS_OPTIONS} over already minified code, composing the source map
 * when one is given. Throws when the input carries a `sourceMappingURL` comment (the pass would
 * drop it) or when Terser returns no code.
 */
export async function runTerserSecondPass(input: TerserSecondPassInput): Promise<{ code: string; map?: string }> {
  if (/\/\/# sourceMappingURL=/.test(input.code)) {
    throw new Error(
      'the Terser second pass does not keep a sourceMappingURL comment; use sourcemap: "hidden" or false',
    );
  }
  const hasMap = input.map !== undefined && input.map !== null;
  const result = await minify(input.code, {
    ...TERSER_SECOND_PASS_OPTIONS,
    sourceMap: hasMap ? { content: toMapText(input.map) } : false,
  });
  if (typeof result.code !== 'string') throw new Error('Terser returned no code');
  if (!hasMap) return { code: result.code };
  if (typeof result.map !== 'string') throw new Error('Terser returned no source map');
  return { code: result.code, map: result.map };
}

/**
 * Minifies every chunk a second time with Terser, after Vite's Oxc minifier: on the IIFE it wins
 * about 400 bytes gzip that neither minifier wins alone (docs/benchmarks.md). Keeps a hidden source
 * map true through the pass (bundle-breakdown reads it). Fails the build when the build is not
 * minified by Oxc first, since these options were measured on Oxc's output.
 */
export function terserSecondPass(): Plugin {
  return {
    name: 'agent-chat:terser-second-pass',
    apply: 'build',
    configResolved(config) {
      if (config.build.minify !== 'oxc') {
        throw new Error(
          `the Terser second pass expects build.minify 'oxc' (true), got ${JSON.stringify(config.build.minify)}; update scripts/build/terser-second-pass.ts`,
        );
      }
    },
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const result = await runTerserSecondPass({ code: chunk.code, map: chunk.map ? chunk.map.toString() : null });
        chunk.code = result.code;
        if (result.map === undefined) continue;
        const map = JSON.parse(result.map) as NonNullable<typeof chunk.map>;
        chunk.map = Object.assign(chunk.map ?? {}, map);
        const mapAsset = bundle[`${chunk.fileName}.map`];
        if (mapAsset?.type === 'asset') mapAsset.source = result.map;
      }
    },
  };
}

function toMapText(map: string | object | null | undefined): string {
  return typeof map === 'string' ? map : JSON.stringify(map);
}
