import { describe, expect, test } from 'vitest';
import { planReleaseFolder } from './plan-release-folder.ts';

describe('planReleaseFolder', () => {
  const base = { releaseRoot: '/repo/release', version: '1.2.3', exists: () => false };

  test('packs a clean checkout into release/<version>/', () => {
    expect(planReleaseFolder({ ...base, isCandidate: false, changes: [] })).toEqual({ folder: '/repo/release/1.2.3' });
  });

  test('refuses uncommitted changes without --candidate, naming each changed path', () => {
    expect(planReleaseFolder({ ...base, isCandidate: false, changes: ['package.json', 'src/new.ts'] })).toEqual({
      error: [
        'release:pack: the checkout has uncommitted changes, so the release would not match a commit:',
        '  package.json',
        '  src/new.ts',
        'Commit them, or pack a candidate with `npm run release:pack -- --candidate`.',
      ].join('\n'),
    });
  });

  test('packs a candidate, clean or not, into release/<version>-candidate/', () => {
    expect(planReleaseFolder({ ...base, isCandidate: true, changes: ['package.json'] })).toEqual({
      folder: '/repo/release/1.2.3-candidate',
    });
    expect(planReleaseFolder({ ...base, isCandidate: true, changes: [] })).toEqual({
      folder: '/repo/release/1.2.3-candidate',
    });
  });

  test('never overwrites an existing folder, release or candidate', () => {
    const exists = (path: string): boolean =>
      path === '/repo/release/1.2.3' || path === '/repo/release/1.2.3-candidate';
    expect(planReleaseFolder({ ...base, exists, isCandidate: false, changes: [] })).toEqual({
      error: 'release:pack: release/1.2.3/ already exists; a release folder is never overwritten.',
    });
    expect(planReleaseFolder({ ...base, exists, isCandidate: true, changes: [] })).toEqual({
      error: 'release:pack: release/1.2.3-candidate/ already exists; a release folder is never overwritten.',
    });
  });
});
