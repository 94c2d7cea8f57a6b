import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Inputs of `npm run build`: when any is newer than `dist/manifest.json`, the build is stale. */
const BUILD_INPUTS = [
  'src',
  'embed',
  'scripts/build',
  'scripts/build.ts',
  'package.json',
  'tsconfig.build.json',
  'LICENSE',
];

/**
 * Runs `scripts/build.ts` (`npm run build`) unless `dist/` is newer than every build input (so
 * `npm test`'s own build is reused); `quiet` leaves the size table out and says one line instead.
 */
export function ensureBuild(rootDir: string, options: { quiet?: boolean } = {}): void {
  const manifest = join(rootDir, 'dist/manifest.json');
  if (existsSync(manifest)) {
    const builtAt = statSync(manifest).mtimeMs;
    const newest = Math.max(...BUILD_INPUTS.map((path) => newestMtime(join(rootDir, path))));
    if (newest <= builtAt) return;
  }
  if (options.quiet === true) console.log('Building dist/ first (npm start -- --sizes prints its size table)…');
  const flags = options.quiet === true ? ['--quiet'] : [];
  execFileSync(process.execPath, ['--import', 'tsx', join(rootDir, 'scripts/build.ts'), ...flags], {
    cwd: rootDir,
    stdio: 'inherit',
  });
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}
