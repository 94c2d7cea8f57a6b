import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PART_TABLE } from '../../src/parts/part-table.ts';
import { partEntry } from './build-parts.ts';
import { partExports, partSideEffects, withPackageParts, type PackageParts } from './package-parts.ts';

const rootDir = process.cwd();
const packageJson = JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8')) as PackageParts;

describe('the part table makes package.json', () => {
  test('package.json holds the exports and sideEffects the part table makes (npm run parts:sync writes them)', () => {
    const made = withPackageParts(packageJson);
    expect(Object.entries(packageJson.exports)).toEqual(Object.entries(made.exports));
    expect(packageJson.sideEffects).toEqual(made.sideEffects);
  });

  test('every part of the table has its folder, its file entry and its global types; every folder is a part', () => {
    const folders = readdirSync(join(rootDir, 'src/parts'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(PART_TABLE.map((row) => row.name).sort());
    for (const row of PART_TABLE) {
      expect(existsSync(join(rootDir, partEntry(row.name))), partEntry(row.name)).toBe(true);
      const types = `src/${'globalTypes' in row ? row.globalTypes : `parts/${row.name}/${row.name}-global.ts`}`;
      expect(existsSync(join(rootDir, types)), types).toBe(true);
    }
    const carriers = PART_TABLE.flatMap((row) => ('carriedBy' in row ? [row.carriedBy] : []));
    for (const carrier of carriers) expect(PART_TABLE.map((row) => row.name)).toContain(carrier);
  });
});

describe('withPackageParts', () => {
  const table = [{ name: 'alpha' }, { name: 'beta-gamma', globalTypes: 'beta-global.ts' }] as const;
  const before: PackageParts = {
    exports: {
      '.': './dist/esm/index.js',
      './agent-chat.zh-CN.js': { types: './x.d.ts', default: './dist/agent-chat.zh-CN.js' },
      './agent-chat.alpha.js': { types: './stale.d.ts', default: './dist/agent-chat.alpha.js' },
      './agent-chat.removed.js': { types: './r.d.ts', default: './dist/agent-chat.removed.js' },
      './agent-chat-tools.js': './dist/agent-chat-tools.js',
    },
    sideEffects: [
      './dist/agent-chat.zh-CN.js',
      './src/parts/removed/removed-file.ts',
      './dist/agent-chat.removed.js',
      './dist/agent-chat-tools.js',
    ],
  };

  test('puts the table’s parts where the first part stood, drops removed parts and keeps the rest in place', () => {
    const after = withPackageParts(before, table);
    expect(Object.keys(after.exports)).toEqual([
      '.',
      './agent-chat.zh-CN.js',
      './agent-chat.alpha.js',
      './agent-chat.beta-gamma.js',
      './agent-chat-tools.js',
    ]);
    expect(after.exports['./agent-chat.beta-gamma.js']).toEqual({
      types: './dist/types/beta-global.d.ts',
      default: './dist/agent-chat.beta-gamma.js',
    });
    expect(after.exports['./agent-chat.alpha.js']).toEqual(partExports(table)['./agent-chat.alpha.js']);
    expect(after.sideEffects).toEqual([
      './dist/agent-chat.zh-CN.js',
      ...partSideEffects(table),
      './dist/agent-chat-tools.js',
    ]);
  });

  test('adds the first part before the browser tools file, and is stable on its own output', () => {
    const bare: PackageParts = {
      exports: { '.': './i.js', './agent-chat-tools.js': './t.js', './package.json': './package.json' },
      sideEffects: ['./dist/agent-chat.js', './dist/agent-chat-tools.js'],
    };
    const after = withPackageParts(bare, table);
    expect(Object.keys(after.exports)).toEqual([
      '.',
      './agent-chat.alpha.js',
      './agent-chat.beta-gamma.js',
      './agent-chat-tools.js',
      './package.json',
    ]);
    expect(after.sideEffects.at(-1)).toBe('./dist/agent-chat-tools.js');
    expect(withPackageParts(after, table)).toEqual(after);
  });
});
