import { describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { createDependencyTransformPlugin, type DependencyTransform } from './dependency-transform-plugin.ts';

/** A transform of `fixtures/describe-count.ts` (the "dependency") used by `fixtures/src/count-label.ts`. */
const PROBE: DependencyTransform = {
  name: 'test:probe-transform',
  dependencyFile: '/fixtures/describe-count.ts',
  userModule: '/src/count-label.ts',
  definedIn: 'the probe',
  transform: (code) => code.replace('items', 'things'),
  checkUse: () => null,
};

async function buildCountLabel(transform: DependencyTransform): Promise<string> {
  const output = await build({
    configFile: false,
    root: fileURLToPath(new URL('./fixtures', import.meta.url)),
    logLevel: 'silent',
    plugins: [createDependencyTransformPlugin(transform)],
    build: {
      write: false,
      minify: false,
      lib: { entry: 'src/count-label.ts', formats: ['es'], fileName: () => 'probe.js' },
    },
  });
  return ((Array.isArray(output) ? output[0] : output) as Rolldown.RolldownOutput).output[0].code;
}

describe('createDependencyTransformPlugin', () => {
  test('rewrites the dependency and lets a module that passes the check use it', async () => {
    expect(await buildCountLabel(PROBE)).toContain('`${count} things`');
  });

  test('fails the build when the dependency no longer has the expected shape', async () => {
    await expect(buildCountLabel({ ...PROBE, transform: () => ({ error: 'no items any more' }) })).rejects.toThrow(
      'no items any more; update the probe',
    );
  });

  test('fails the build when a module of ours breaks the assumption', async () => {
    const checkUse = (_code: string, id: string): string | null =>
      id.endsWith('/src/count-label.ts') ? 'count-label.ts uses it another way' : null;
    await expect(buildCountLabel({ ...PROBE, checkUse })).rejects.toThrow(
      'count-label.ts uses it another way; update the probe or the module',
    );
  });

  test('fails the build when the user module was bundled but the dependency file never was', async () => {
    await expect(buildCountLabel({ ...PROBE, dependencyFile: '/fixtures/moved-away.ts' })).rejects.toThrow(
      '/fixtures/moved-away.ts was never bundled although /src/count-label.ts was; update the probe',
    );
  });
});
