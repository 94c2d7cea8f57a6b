import { describe, expect, test } from 'vitest';
import { createReleaseManifest, findManifestMismatches } from './release-manifest.ts';

const encoder = new TextEncoder();

describe('createReleaseManifest', () => {
  test('records the source, the protocol and every file with its SHA-256 and SRI, sorted by name', () => {
    const manifest = createReleaseManifest({
      name: 'agent-chat',
      version: '1.2.3',
      isCandidate: false,
      commit: 'abc123',
      uncommittedChanges: [],
      protocolVersion: '1.0',
      contract: { path: 'docs/protocol.md', content: encoder.encode('# protocol\n') },
      files: new Map([
        ['agent-chat.js', encoder.encode('alert(1)')],
        ['LICENSE', encoder.encode('alert(1)')],
      ]),
    });
    // `printf 'alert(1)' | sha256sum` and `printf '# protocol\n' | sha256sum`
    const file = {
      bytes: 8,
      gzipBytes: 28,
      brotliBytes: 12,
      integrity: 'sha384-HT2E9NfWiuQ/w1PRai+hTyqW16NIoCGA/m8VQDUopfAtcz6YQjtsMmQd5uRbVDpW',
      sha256: '6e11c72f7cf6bc383152dd16ddd5903aba6bb1c99d6b6639a4bb0b838185fa92',
    };
    expect(manifest).toEqual({
      name: 'agent-chat',
      version: '1.2.3',
      isCandidate: false,
      commit: 'abc123',
      uncommittedChanges: [],
      protocol: {
        version: '1.0',
        contract: {
          path: 'docs/protocol.md',
          sha256: '69efb6b76dddefc41691d9fb821c89f20630204ff59949aa0bf4b359d72ab0aa',
        },
      },
      files: { LICENSE: file, 'agent-chat.js': file },
    });
    expect(Object.keys(manifest.files)).toEqual(['LICENSE', 'agent-chat.js']);
  });
});

describe('findManifestMismatches', () => {
  const manifest = createReleaseManifest({
    name: 'agent-chat',
    version: '1.2.3',
    isCandidate: true,
    commit: 'abc123',
    uncommittedChanges: ['package.json'],
    protocolVersion: '1.0',
    contract: { path: 'docs/protocol.md', content: encoder.encode('') },
    files: new Map([
      ['a.js', encoder.encode('a')],
      ['b.js', encoder.encode('b')],
    ]),
  });

  test('finds nothing when the folder holds exactly the listed files', () => {
    const files = new Map([
      ['a.js', encoder.encode('a')],
      ['b.js', encoder.encode('b')],
    ]);
    expect(findManifestMismatches(manifest, files)).toEqual([]);
  });

  test('names a changed, a missing and an unlisted file', () => {
    const files = new Map([
      ['a.js', encoder.encode('A')],
      ['c.js', encoder.encode('c')],
    ]);
    expect(findManifestMismatches(manifest, files)).toEqual([
      'a.js: content differs from manifest.json',
      'b.js: listed in manifest.json but missing',
      'c.js: not listed in manifest.json',
    ]);
  });
});
