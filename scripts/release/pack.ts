/**
 * `npm run release:pack [-- --candidate]`: builds the package from a clean checkout and writes
 * `release/<version>/` (a candidate: `release/<version>-candidate/`) with the npm tarball, the
 * script-tag IIFEs `agent-chat.js` (with its locale pack `agent-chat.zh-CN.js` and its launcher
 * `agent-chat.launcher.js`) and `agent-chat-tools.js`, `LICENSE` and `manifest.json` (see `release-manifest.ts`).
 * Refuses a checkout with uncommitted changes unless `--candidate`, and never overwrites an
 * existing folder. See docs/release.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatKb } from '../build/format-size-table.ts';
import { planReleaseFolder } from './plan-release-folder.ts';
import { readGitState } from './read-git-state.ts';
import { createReleaseManifest } from './release-manifest.ts';
import { RELEASE_SCRIPT_FILES } from './release-files.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The normative protocol document, whose digest the manifest records. */
const PROTOCOL_CONTRACT = 'docs/protocol.md';

await main();

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--candidate');
  if (unknown.length > 0)
    fail(`release:pack: unknown argument ${unknown.join(' ')}; usage: release:pack [--candidate]`);
  const isCandidate = args.includes('--candidate');

  const packageJson = JSON.parse(await readFile(join(rootDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const git = readGitState(rootDir);
  const plan = planReleaseFolder({
    releaseRoot: join(rootDir, 'release'),
    version: packageJson.version,
    isCandidate,
    changes: git.changes,
    exists: existsSync,
  });
  if ('error' in plan) fail(plan.error);
  const releaseDir = plan.folder;

  execFileSync(process.execPath, ['--import', 'tsx', join(rootDir, 'scripts/build.ts')], {
    cwd: rootDir,
    stdio: 'inherit',
  });
  await mkdir(join(rootDir, 'release'), { recursive: true });
  const stagingDir = await mkdtemp(join(rootDir, 'release', '.staging-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', stagingDir], {
        cwd: rootDir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    ) as Array<{ filename: string }>;
    const tarballName = packed[0]?.filename;
    if (tarballName === undefined) throw new Error('npm pack reported no tarball');
    for (const file of RELEASE_SCRIPT_FILES) await copyFile(join(rootDir, 'dist', file), join(stagingDir, file));
    await copyFile(join(rootDir, 'LICENSE'), join(stagingDir, 'LICENSE'));

    const files = new Map<string, Uint8Array>();
    for (const name of await readdir(stagingDir)) files.set(name, await readFile(join(stagingDir, name)));
    const core = (await import(pathToFileURL(join(rootDir, 'dist/esm/core.js')).href)) as { PROTOCOL_VERSION: string };
    const manifest = createReleaseManifest({
      name: packageJson.name,
      version: packageJson.version,
      isCandidate,
      commit: git.commit,
      uncommittedChanges: git.changes,
      protocolVersion: core.PROTOCOL_VERSION,
      contract: { path: PROTOCOL_CONTRACT, content: await readFile(join(rootDir, PROTOCOL_CONTRACT)) },
      files,
    });
    await writeFile(join(stagingDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    // Claims the folder only now (mkdir fails if another pack got there first), then moves the files in.
    await mkdir(releaseDir);
    for (const name of await readdir(stagingDir)) await rename(join(stagingDir, name), join(releaseDir, name));
    console.log(`${relative(rootDir, releaseDir)}/ (${isCandidate ? 'candidate' : 'release'} of ${git.commit})`);
    for (const name of (await readdir(releaseDir)).sort()) {
      const entry = manifest.files[name];
      const size = formatKb((await readFile(join(releaseDir, name))).byteLength).padStart(10);
      console.log(`  ${name.padEnd(24)} ${size}${entry ? `  ${entry.integrity}` : ''}`);
    }
  } finally {
    await rm(stagingDir, { recursive: true, force: true });
  }
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
