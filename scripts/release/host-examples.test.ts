import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Lockfile } from './consumer-lockfile.ts';
import { HOSTS } from './test-hosts.ts';

/**
 * The host matrix installs each example with the repository lock's versions (host-project.ts), so
 * nothing there would notice an example whose own package.json says otherwise: this does.
 */
const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): Promise<string> => readFile(`${rootDir}${path}`, 'utf8');

interface ExamplePackage {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

describe.each(HOSTS.map((host) => [host.example, host] as const))('examples/%s', (example, host) => {
  test('depends on this version’s release tarball and, for the rest, on what the repository locks', async () => {
    const { version } = JSON.parse(await read('package.json')) as { version: string };
    const lock = JSON.parse(await read('package-lock.json')) as Lockfile;
    const own = JSON.parse(await read(`examples/${example}/package.json`)) as ExamplePackage;
    const { 'agent-chat': tarball, ...others } = { ...own.dependencies, ...own.devDependencies };
    expect(tarball).toBe(`file:../../release/${version}/agent-chat-${version}.tgz`);
    expect(Object.keys(others).length).toBeGreaterThan(0);
    for (const [name, range] of Object.entries(others)) {
      expect(range, name).toBe(lock.packages[`node_modules/${name}`]?.version);
    }
  });

  test('has the scripts the matrix runs, and a README that says how to run them', async () => {
    const own = JSON.parse(await read(`examples/${example}/package.json`)) as ExamplePackage;
    expect(Object.keys(own.scripts ?? {})).toEqual(expect.arrayContaining([...host.builds, host.start]));
    const readme = await read(`examples/${example}/README.md`);
    for (const command of ['npm run release:pack', 'npm install', ...host.builds.map((build) => `npm run ${build}`)]) {
      expect(readme).toContain(command);
    }
    expect(readme).toContain(host.start === 'start' ? 'npm start' : `npm run ${host.start}`);
  });
});
