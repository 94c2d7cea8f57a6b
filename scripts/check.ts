import { join } from 'node:path';
import { firstFailure, runStages, type Stage, type StageResult } from './check/run-stages.ts';

/**
 * `npm run check`: format, lint, types and the unit tests that need no browser, in two tracks at
 * once (on 2 cores the tests take one, the rest the other). Prettier and ESLint keep a content-keyed
 * cache in node_modules/.cache; `npm test` (the whole gate) lints without it. Prints each stage's
 * time, the output of every failed stage, and exits 1 naming the first failure.
 */

const bin = (name: string): string => join('node_modules', '.bin', name);

const STATIC_TRACK: Stage[] = [
  { name: 'prettier', command: bin('prettier'), args: ['--check', '--cache', '--cache-strategy', 'content', '.'] },
  {
    name: 'eslint',
    command: bin('eslint'),
    args: ['--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '.'],
  },
  { name: 'tsc', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'tsc core', command: bin('tsc'), args: ['-p', 'tsconfig.core.json', '--noEmit'] },
];

/** The Vitest projects of `check`: `server-integration` and the browser's `ui` run in `npm test`. */
const TEST_TRACK: Stage[] = [
  {
    name: 'vitest',
    command: bin('vitest'),
    args: ['run', '--project', 'core', '--project', 'core-hono', '--project', 'server', '--project', 'scripts'],
  },
];

const startedAt = performance.now();
const results = await runStages([STATIC_TRACK, TEST_TRACK], report);
const failure = firstFailure(results);
const total = `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
if (failure) {
  console.error(`\ncheck failed in ${total}; first failure: ${failure.name}`);
  process.exitCode = 1;
} else {
  console.log(`\ncheck passed in ${total}`);
}

function report(result: StageResult): void {
  const line = `${result.name.padEnd(9)} ${result.seconds.toFixed(1).padStart(6)} s`;
  if (result.exitCode === 0) {
    const summary = result.output.split('\n').filter((text) => /^\s*(Test Files|Tests)\s/.test(stripColor(text)));
    console.log([`✓ ${line}`, ...summary.map((text) => `    ${text.trim()}`)].join('\n'));
    return;
  }
  console.error(`\n✗ ${line} (exit ${result.exitCode ?? 'none'})\n${result.output.trimEnd()}\n`);
}

function stripColor(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
