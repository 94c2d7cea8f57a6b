import { describe, expect, test } from 'vitest';
import { createConsumerPackageFiles, registryTarballUrl, resolveInLock, type Lockfile } from './consumer-lockfile.ts';

const sourceLock: Lockfile = {
  name: 'agent-chat',
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': { name: 'agent-chat', version: '0.1.0' },
    'node_modules/lit': { version: '3.3.3', integrity: 'sha512-lit', dependencies: { 'lit-html': '^3.3.0' } },
    'node_modules/lit-html': { version: '3.3.3', integrity: 'sha512-lit-html', license: 'BSD-3-Clause' },
    'node_modules/dompurify': {
      version: '3.5.0',
      integrity: 'sha512-dompurify',
      optionalDependencies: { '@types/trusted-types': '^2.0.7', 'not-installed': '^1.0.0' },
    },
    'node_modules/@types/trusted-types': { version: '2.0.7', integrity: 'sha512-tt', dev: true },
    'node_modules/react': { version: '19.3.1', integrity: 'sha512-react', dev: true },
    'node_modules/react-dom': {
      version: '19.3.1',
      integrity: 'sha512-react-dom',
      dev: true,
      dependencies: { scheduler: '^0.28.0' },
    },
    'node_modules/react-dom/node_modules/scheduler': { version: '0.28.0', integrity: 'sha512-nested', dev: true },
    'node_modules/scheduler': { version: '0.20.0', integrity: 'sha512-hoisted', dev: true },
    'node_modules/eslint': { version: '9.39.5', integrity: 'sha512-eslint', dev: true },
    'node_modules/@lit/react': {
      version: '1.0.8',
      integrity: 'sha512-lit-react',
      dev: true,
      peerDependencies: { '@types/react': '17 || 18 || 19', eslint: '*' },
      peerDependenciesMeta: { eslint: { optional: true } },
    },
    'node_modules/@types/react': { version: '19.3.3', integrity: 'sha512-types-react', dev: true },
  },
};

const tarball = {
  fileName: 'agent-chat-0.1.0.tgz',
  integrity: 'sha512-tarball',
  packageJson: {
    name: 'agent-chat',
    version: '0.1.0',
    license: 'MIT',
    description: 'not a lock field',
    dependencies: { lit: '3.3.3', dompurify: '3.5.0' },
    peerDependencies: { react: '^19.0.0' },
    peerDependenciesMeta: { react: { optional: true } },
  },
};

const common = { name: 'c', tarball, sourceLock, registry: 'https://registry.example/npm' };
const at = (name: string, version: string): string =>
  `https://registry.example/npm/${name}/-/${name.split('/')[1] ?? name}-${version}.tgz`;

describe('createConsumerPackageFiles', () => {
  test('pins the tarball, its dependency tree and the extra dependencies to the source lock and the registry, nothing else', () => {
    const project = createConsumerPackageFiles({ ...common, name: 'consumer', extraDependencies: ['react-dom'] });
    expect(project.packageJson).toEqual({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: { 'agent-chat': 'file:agent-chat-0.1.0.tgz', 'react-dom': '19.3.1' },
    });
    expect(project.lockfile).toEqual({
      name: 'consumer',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'consumer', dependencies: { 'agent-chat': 'file:agent-chat-0.1.0.tgz', 'react-dom': '19.3.1' } },
        'node_modules/@types/trusted-types': {
          version: '2.0.7',
          integrity: 'sha512-tt',
          resolved: at('@types/trusted-types', '2.0.7'),
        },
        'node_modules/agent-chat': {
          version: '0.1.0',
          license: 'MIT',
          dependencies: { lit: '3.3.3', dompurify: '3.5.0' },
          peerDependencies: { react: '^19.0.0' },
          peerDependenciesMeta: { react: { optional: true } },
          resolved: 'file:agent-chat-0.1.0.tgz',
          integrity: 'sha512-tarball',
        },
        'node_modules/dompurify': {
          ...sourceLock.packages['node_modules/dompurify'],
          resolved: at('dompurify', '3.5.0'),
        },
        'node_modules/lit': { ...sourceLock.packages['node_modules/lit'], resolved: at('lit', '3.3.3') },
        'node_modules/lit-html': { ...sourceLock.packages['node_modules/lit-html'], resolved: at('lit-html', '3.3.3') },
        'node_modules/react-dom': {
          version: '19.3.1',
          integrity: 'sha512-react-dom',
          dependencies: { scheduler: '^0.28.0' },
          resolved: at('react-dom', '19.3.1'),
        },
        'node_modules/react-dom/node_modules/scheduler': {
          version: '0.28.0',
          integrity: 'sha512-nested',
          resolved: at('scheduler', '0.28.0'),
        },
      },
    });
  });

  test('pins the peers npm installs with a package, and leaves its optional peers out', () => {
    const project = createConsumerPackageFiles({ ...common, extraDependencies: ['@lit/react'] });
    expect(
      Object.keys(project.lockfile.packages).filter((path) => path.includes('react') || path.includes('eslint')),
    ).toEqual(['node_modules/@lit/react', 'node_modules/@types/react']);
    expect(project.lockfile.packages['node_modules/@types/react']).toEqual({
      version: '19.3.3',
      integrity: 'sha512-types-react',
      resolved: at('@types/react', '19.3.3'),
    });
  });

  test('names the missing package when the source lock cannot satisfy a dependency', () => {
    const broken = { ...tarball, packageJson: { ...tarball.packageJson, dependencies: { marked: '18.2.1' } } };
    expect(() => createConsumerPackageFiles({ ...common, tarball: broken, extraDependencies: [] })).toThrow(
      'marked (needed by node_modules/agent-chat) is not in package-lock.json; run npm install',
    );
    expect(() => createConsumerPackageFiles({ ...common, extraDependencies: ['vue'] })).toThrow(
      'vue is not in package-lock.json; run npm install',
    );
  });
});

describe('registryTarballUrl', () => {
  test('is where npm publishes a version, without the scope in the file name', () => {
    expect(registryTarballUrl('https://registry.npmjs.org/', '@lit/react', '1.0.8')).toBe(
      'https://registry.npmjs.org/@lit/react/-/react-1.0.8.tgz',
    );
    expect(registryTarballUrl('https://registry.npmjs.org', 'lit', '3.3.3')).toBe(
      'https://registry.npmjs.org/lit/-/lit-3.3.3.tgz',
    );
  });
});

describe('resolveInLock', () => {
  test('looks in the requiring package’s own node_modules first, then in each enclosing one', () => {
    expect(resolveInLock(sourceLock, 'node_modules/react-dom', 'scheduler')).toBe(
      'node_modules/react-dom/node_modules/scheduler',
    );
    expect(resolveInLock(sourceLock, 'node_modules/lit', 'scheduler')).toBe('node_modules/scheduler');
    expect(resolveInLock(sourceLock, 'node_modules/react-dom/node_modules/scheduler', 'lit')).toBe('node_modules/lit');
    expect(resolveInLock(sourceLock, 'node_modules/lit', 'vue')).toBe(undefined);
  });
});
