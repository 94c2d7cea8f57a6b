import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { iifeViteConfig } from './build-iife.ts';
import { describeNonProductionModule, requireProductionBuilds } from './require-production-builds.ts';

const FIXTURES_DIR = fileURLToPath(new URL('./fixtures', import.meta.url));

/** A library build of `fixtures/render-greeting.ts` (which imports lit) with the guard, written nowhere. */
function buildGreeting(conditions: string[] | undefined) {
  return build({
    configFile: false,
    root: FIXTURES_DIR,
    logLevel: 'silent',
    plugins: [requireProductionBuilds()],
    resolve: { conditions },
    build: {
      write: false,
      lib: { entry: 'render-greeting.ts', formats: ['iife'], name: 'Probe', fileName: () => 'probe.js' },
    },
  });
}

describe('describeNonProductionModule', () => {
  test("names Lit's development and Node.js builds and accepts its browser build and other packages", () => {
    expect(describeNonProductionModule('/r/node_modules/lit-html/development/lit-html.js')).toBe(
      'lit-html resolved to its development build (/r/node_modules/lit-html/development/lit-html.js)',
    );
    expect(describeNonProductionModule('/r/node_modules/@lit/reactive-element/node/css-tag.js')).toBe(
      '@lit/reactive-element resolved to its Node.js build (/r/node_modules/@lit/reactive-element/node/css-tag.js)',
    );
    expect(describeNonProductionModule('/r/node_modules/lit-html/lit-html.js')).toBeNull();
    expect(describeNonProductionModule('/r/node_modules/marked/lib/marked.esm.js')).toBeNull();
  });
});

describe('requireProductionBuilds', () => {
  test("passes the IIFE's resolve conditions, which pick Lit's browser production files even under NODE_ENV=test", async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const iife = iifeViteConfig({ rootDir: FIXTURES_DIR, entry: 'render-greeting.ts', fileName: 'probe.js' });
    await expect(buildGreeting(iife.resolve?.conditions)).resolves.toBeDefined();
  });

  test("fails a build on Vite's default conditions under NODE_ENV=test, which pick the development build", async () => {
    await expect(buildGreeting(undefined)).rejects.toThrow(/lit-html resolved to its development build/);
  });

  test('fails a build whose resolve conditions pick the development build', async () => {
    await expect(buildGreeting(['development', 'browser', 'module'])).rejects.toThrow(
      /resolved to its development build .*check resolve\.conditions/s,
    );
  });
});
