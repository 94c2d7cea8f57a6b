import { execFileSync } from 'node:child_process';

/** The checkout's commit and the paths `git status` reports as changed or untracked (ignored files excluded). */
export interface GitState {
  commit: string;
  changes: string[];
}

/** Reads {@link GitState} of the repository at `rootDir`; throws when it is not a git checkout. */
export function readGitState(rootDir: string): GitState {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: rootDir, encoding: 'utf8' });
  const commit = git('rev-parse', 'HEAD').trim();
  const changes = git('status', '--porcelain=v1', '--untracked-files=all')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.slice(3));
  return { commit, changes };
}
