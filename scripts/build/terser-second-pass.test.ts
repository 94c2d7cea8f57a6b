import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { runTerserSecondPass, terserSecondPass } from './terser-second-pass.ts';

const FIXTURES_DIR = fileURLToPath(new URL('./fixtures', import.meta.url));

/** A library build of `fixtures/describe-count.ts` with the second pass, written nowhere. */
async function buildWithSecondPass(options: { minify: boolean; sourcemap: boolean | 'hidden' }) {
  const output = await build({
    configFile: false,
    root: FIXTURES_DIR,
    logLevel: 'silent',
    plugins: [terserSecondPass()],
    build: {
      write: false,
      minify: options.minify,
      sourcemap: options.sourcemap,
      lib: { entry: 'describe-count.ts', formats: ['iife'], name: 'Probe', fileName: () => 'probe.js' },
    },
  });
  return (Array.isArray(output) ? output[0] : output) as Rolldown.RolldownOutput;
}

describe('runTerserSecondPass', () => {
  test('keeps a /*! licence banner and @license comments while it compresses', async () => {
    const code =
      '/*! agent-chat | MIT */\n/** @license BSD-3-Clause */\nfunction f(a){if(a){return 1}else{return 2}}window.f=f;';
    expect((await runTerserSecondPass({ code })).code).toBe(
      '/*! agent-chat | MIT */\n/** @license BSD-3-Clause */\nfunction f(f){return f?1:2}window.f=f;',
    );
  });

  test('refuses code that carries a sourceMappingURL comment, which it would drop', async () => {
    await expect(runTerserSecondPass({ code: 'window.a=1;\n//# sourceMappingURL=a.js.map\n' })).rejects.toThrow(
      'the Terser second pass does not keep a sourceMappingURL comment',
    );
  });
});

describe('terserSecondPass', () => {
  test('minifies after Oxc and keeps the hidden source map pointing at the original module', async () => {
    const [chunk, mapAsset] = (await buildWithSecondPass({ minify: true, sourcemap: 'hidden' })).output;
    expect(chunk.code).toBe(
      // Oxc writes plain strings as `…` literals; the double quotes show Terser ran after it.
      'var Probe=function(e){return Object.defineProperty(e,Symbol.toStringTag,{value:"Module"}),e.describe=function(e){return e>1?`${e} items`:"one item"},e}({});',
    );
    expect(chunk.map?.sources).toEqual(['../describe-count.ts']);
    expect(chunk.map?.names).toContain('count');
    expect(mapAsset?.type === 'asset' && JSON.parse(String(mapAsset.source))).toMatchObject({
      sources: ['../describe-count.ts'],
      mappings: chunk.map?.mappings,
    });
  });

  test('fails the build when Vite does not minify with Oxc first', async () => {
    await expect(buildWithSecondPass({ minify: false, sourcemap: false })).rejects.toThrow(
      "the Terser second pass expects build.minify 'oxc' (true), got false",
    );
  });
});
