/**
 * `npm run deps:drill` (not part of `npm test`): proves the build and the widget take another
 * release of the widget's runtime dependencies' major lines (lit, marked and dompurify, which
 * `agent-chat.js` bundles as published; `--all` adds the server's). Copies the repository into a
 * temporary folder, installs there the release published just before the locked one of each
 * (`npm install --no-save`, so package.json and the lockfile stay as they are), then runs
 * `npm run build` and the widget's unit tests (`vitest --project ui`) in the copy. Prints what it
 * installed and each step's outcome; exits non-zero when a step fails. `--keep` leaves the copy.
 * Needs the npm registry.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pickPreviousRelease } from './deps/pick-previous-release.ts';

/** What the copy leaves out: built and generated output, Git's own folder. */
const NOT_COPIED = new Set(['.git', 'dist', 'release', 'test-results', 'playwright-report']);

/** The runtime dependencies the widget's files bundle. */
const WIDGET_DEPENDENCIES = ['lit', 'marked', 'dompurify'];

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const isKept = process.argv.includes('--keep');
const isAll = process.argv.includes('--all');

const packageJson = JSON.parse(await readFile(join(rootDir, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const lock = JSON.parse(await readFile(join(rootDir, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string }>;
};

const plan: Array<{ name: string; range: string; locked: string; previous: string }> = [];
for (const name of isAll ? Object.keys(packageJson.dependencies) : WIDGET_DEPENDENCIES) {
  const range = packageJson.dependencies[name];
  if (range === undefined) throw new Error(`deps:drill: ${name} is no runtime dependency in package.json`);
  const locked = lock.packages[`node_modules/${name}`]?.version;
  if (!locked) throw new Error(`deps:drill: ${name} is not in package-lock.json; run npm install`);
  const versions = JSON.parse(execFileSync('npm', ['view', name, 'versions', '--json'], { encoding: 'utf8' })) as
    string[] | string;
  const previous = pickPreviousRelease(locked, Array.isArray(versions) ? versions : [versions]);
  if (previous === undefined) console.log(`${name} ${range}: locked ${locked}, no earlier release in its major line`);
  else plan.push({ name, range, locked, previous });
}

const copyDir = await mkdtemp(join(tmpdir(), 'agent-chat-deps-drill-'));
console.log(`copying the repository into ${copyDir}`);
await cp(rootDir, copyDir, {
  recursive: true,
  verbatimSymlinks: true,
  filter: (source) => !NOT_COPIED.has(relative(rootDir, source).split('/')[0] ?? ''),
});

const steps: Array<{ step: string; isPassed: boolean }> = [];
const run = (step: string, command: string, args: string[]): boolean => {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: copyDir, stdio: 'inherit' });
  const isPassed = result.status === 0;
  steps.push({ step, isPassed });
  return isPassed;
};

try {
  const specs = plan.map((entry) => `${entry.name}@${entry.previous}`);
  const isInstalled = run('install', 'npm', [
    'install',
    '--no-save',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...specs,
  ]);
  if (isInstalled) {
    console.log('\ninstalled in the copy:');
    for (const entry of plan) {
      const installed = JSON.parse(
        await readFile(join(copyDir, 'node_modules', entry.name, 'package.json'), 'utf8'),
      ) as { version: string };
      console.log(`  ${entry.name} ${entry.range}: locked ${entry.locked}, drilled ${installed.version}`);
      if (installed.version !== entry.previous)
        steps.push({ step: `${entry.name}@${entry.previous}`, isPassed: false });
    }
    if (run('build', 'npm', ['run', 'build'])) run('widget unit tests', 'npx', ['vitest', 'run', '--project', 'ui']);
  }
} finally {
  if (isKept) console.log(`\nthe copy stays in ${copyDir}`);
  else await rm(copyDir, { recursive: true, force: true });
}

console.log('\ndeps:drill tried:');
for (const entry of plan) console.log(`  ${entry.name}@${entry.previous} (locked ${entry.locked})`);
for (const { step, isPassed } of steps) console.log(`  ${isPassed ? 'passed' : 'FAILED'}: ${step}`);
const hasFailed = steps.some((step) => !step.isPassed) || steps.length === 0;
console.log(
  `deps:drill: ${hasFailed ? 'FAILED' : 'the build and the widget unit tests pass with the previous releases'}`,
);
process.exit(hasFailed ? 1 : 0);
