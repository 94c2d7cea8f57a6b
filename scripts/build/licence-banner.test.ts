import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import {
  formatLicenceBanner,
  listBundledPackageNames,
  nameBundledPackages,
  type PackageInfo,
} from './licence-banner.ts';

describe('listBundledPackageNames', () => {
  test('names the package folder after the last node_modules, scoped or not, once each and sorted', () => {
    expect(
      listBundledPackageNames([
        '/repo/src/ui/agent-chat/agent-chat.ts',
        '/repo/node_modules/lit-html/lit-html.js',
        '/repo/node_modules/lit-html/directives/repeat.js',
        '/repo/node_modules/@lit/reactive-element/css-tag.js',
        '/repo/node_modules/a/node_modules/b/index.js',
        '\0rolldown/runtime.js',
      ]),
    ).toEqual(['@lit/reactive-element', 'b', 'lit-html']);
  });
});

describe('nameBundledPackages', () => {
  const installed = new Map<string, PackageInfo>([
    [
      'lit',
      { name: 'lit', license: 'BSD-3-Clause', dependencies: { 'lit-html': '^3', '@lit/reactive-element': '^2' } },
    ],
    ['lit-html', { name: 'lit-html', license: 'BSD-3-Clause', dependencies: { '@types/trusted-types': '^2' } }],
    ['@lit/reactive-element', { name: '@lit/reactive-element', license: 'BSD-3-Clause' }],
    ['@types/trusted-types', { name: '@types/trusted-types', license: 'MIT' }],
    ['marked', { name: 'marked', license: 'MIT' }],
  ]);

  test('counts code under the direct dependency that brings it and shares its licence', () => {
    expect(
      nameBundledPackages({
        bundledNames: ['@lit/reactive-element', 'lit-html', 'marked'],
        directDependencies: ['lit', 'marked'],
        installed,
      }),
    ).toEqual([
      { name: 'lit', license: 'BSD-3-Clause' },
      { name: 'marked', license: 'MIT' },
    ]);
  });

  test('names a bundled package of another licence itself, even inside a dependency tree', () => {
    expect(
      nameBundledPackages({
        bundledNames: ['@types/trusted-types', 'lit-html'],
        directDependencies: ['lit'],
        installed,
      }),
    ).toEqual([
      { name: '@types/trusted-types', license: 'MIT' },
      { name: 'lit', license: 'BSD-3-Clause' },
    ]);
  });
});

describe('formatLicenceBanner', () => {
  test('opens a legal comment with the version, the licence, the copyright and the bundled licences', async () => {
    const licenseText = await readFile(new URL('../../LICENSE', import.meta.url), 'utf8');
    expect(
      formatLicenceBanner({
        name: 'agent-chat',
        version: '1.2.3',
        licenseText,
        bundled: [
          { name: 'dompurify', license: '(MPL-2.0 OR Apache-2.0)' },
          { name: 'lit', license: 'BSD-3-Clause' },
        ],
      }),
    ).toBe(
      '/*! agent-chat 1.2.3 | MIT License | Copyright (c) 2026 The agent-chat authors | bundles dompurify (MPL-2.0 OR Apache-2.0), lit (BSD-3-Clause) */',
    );
  });

  test('refuses a licence text without a copyright line', () => {
    expect(() =>
      formatLicenceBanner({ name: 'x', version: '1.0.0', licenseText: 'MIT License\n', bundled: [] }),
    ).toThrow('LICENSE must open with the licence name and hold a Copyright line');
  });
});
