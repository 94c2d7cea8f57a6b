import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RELEASE_SCRIPT_FILES } from './release-files.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The file names in the first column of the table under docs/release.md's `release:pack` heading. */
function documentedReleaseFiles(): string[] {
  const text = readFileSync(resolve(rootDir, 'docs/release.md'), 'utf8');
  const section = text.slice(text.indexOf('## `npm run release:pack`'), text.indexOf('`manifest.json`:'));
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] ?? '');
}

describe('docs/release.md', () => {
  it('lists every file release:pack writes: the tarball, the script-tag files, the licence and the manifest', () => {
    // pack.ts writes the tarball (`npm pack`), LICENSE and manifest.json beside the script-tag files.
    expect(documentedReleaseFiles().sort()).toEqual(
      ['agent-chat-<version>.tgz', ...RELEASE_SCRIPT_FILES, 'LICENSE', 'manifest.json'].sort(),
    );
  });
});
