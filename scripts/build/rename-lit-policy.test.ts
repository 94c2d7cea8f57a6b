import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { build, type Rolldown } from 'vite';
import { iifeViteConfig } from './build-iife.ts';
import { renameLitPolicy, renameLitPolicyIn } from './rename-lit-policy.ts';

const FIXTURES_DIR = fileURLToPath(new URL('./fixtures', import.meta.url));

/** An IIFE of a fixture with the rename, as the shipped build makes one, written nowhere. */
async function buildFixture(entry: string): Promise<string> {
  const config = iifeViteConfig({
    rootDir: FIXTURES_DIR,
    entry,
    fileName: 'probe.js',
    plugins: [renameLitPolicy('probe-policy')],
  });
  // The fixtures have no package.json for the licence banner, which the rename does not need.
  const output = await build({
    ...config,
    logLevel: 'silent',
    build: { ...config.build, write: false, rolldownOptions: { output: { codeSplitting: false } } },
  });
  return ((Array.isArray(output) ? output[0] : output) as Rolldown.RolldownOutput).output[0].code;
}

const readLitHtml = (): Promise<string> =>
  readFile(fileURLToPath(new URL('../../node_modules/lit-html/lit-html.js', import.meta.url)), 'utf8');

describe('renameLitPolicyIn', () => {
  test("gives the installed lit-html's one policy the new name and changes nothing else", async () => {
    const source = await readLitHtml();
    const renamed = renameLitPolicyIn(source, 'agent-chat-conversations');
    if (typeof renamed !== 'string') throw new Error(renamed.error);
    expect(renamed).toContain('createPolicy("agent-chat-conversations",{createHTML:');
    expect(renamed).not.toContain('"lit-html"');
    expect(renamed.replace('"agent-chat-conversations"', '"lit-html"')).toBe(source);
  });

  test('refuses a lit-html.js that creates its policy another way', async () => {
    const source = await readLitHtml();
    expect(renameLitPolicyIn(source.replace('createPolicy("lit-html",', 'createPolicy(`lit-html`,'), 'x')).toEqual({
      error: `lit-html's lit-html.js has 0 copies of createPolicy("lit-html",, not 1`,
    });
  });
});

describe('renameLitPolicy', () => {
  test('renames the policy of the Lit copy a build bundles', async () => {
    const code = await buildFixture('render-greeting.ts');
    expect(code).toContain('createPolicy("probe-policy"');
    expect(code).not.toContain('"lit-html"');
  });

  test('fails a build in which lit-html never came through, so the rename cannot silently stop', async () => {
    await expect(buildFixture('describe-count.ts')).rejects.toThrow(/lit-html\.js was never bundled/);
  });
});
