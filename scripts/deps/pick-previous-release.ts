/** A `major.minor.patch` release, no pre-release or build tag. */
const RELEASE = /^(\d+)\.(\d+)\.(\d+)$/;

/**
 * The release published just before `current` in its major line: the highest
 * `major.minor.patch` of `versions` that has `current`'s major and is lower than it (so the
 * previous patch, or the last patch of an earlier minor when `current` is a `.0`). Pre-releases
 * never count. `undefined` when the major line has nothing earlier (say `1.0.0`).
 */
export function pickPreviousRelease(current: string, versions: readonly string[]): string | undefined {
  const target = parseRelease(current);
  if (!target) throw new Error(`not a release version: ${current}`);
  let best: number[] | undefined;
  for (const version of versions) {
    const parts = parseRelease(version);
    if (!parts || parts[0] !== target[0] || compare(parts, target) >= 0) continue;
    if (!best || compare(parts, best) > 0) best = parts;
  }
  return best?.join('.');
}

function parseRelease(version: string): number[] | undefined {
  const match = RELEASE.exec(version);
  return match ? match.slice(1).map(Number) : undefined;
}

function compare(a: number[], b: number[]): number {
  for (let index = 0; index < 3; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
