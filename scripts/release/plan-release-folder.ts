import { join } from 'node:path';

/** Options of {@link planReleaseFolder}. */
export interface PlanReleaseOptions {
  /** The `release/` folder of the repository. */
  releaseRoot: string;
  version: string;
  /** `--candidate`: pack even with uncommitted changes, into `<version>-candidate/`. */
  isCandidate: boolean;
  /** Paths `git status` reports as changed or untracked. */
  changes: readonly string[];
  /** Whether a path exists already (injected so the decision stays pure). */
  exists: (path: string) => boolean;
}

/**
 * Decides the folder `release:pack` writes, or why it must not pack: uncommitted changes without
 * `--candidate` (the release would match no commit; the message lists them), or a folder that
 * exists already (a release folder is never overwritten).
 */
export function planReleaseFolder(options: PlanReleaseOptions): { folder: string } | { error: string } {
  if (options.changes.length > 0 && !options.isCandidate) {
    return {
      error: [
        'release:pack: the checkout has uncommitted changes, so the release would not match a commit:',
        ...options.changes.map((path) => `  ${path}`),
        'Commit them, or pack a candidate with `npm run release:pack -- --candidate`.',
      ].join('\n'),
    };
  }
  const name = options.isCandidate ? `${options.version}-candidate` : options.version;
  const folder = join(options.releaseRoot, name);
  if (options.exists(folder)) {
    return { error: `release:pack: release/${name}/ already exists; a release folder is never overwritten.` };
  }
  return { folder };
}
