import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listBareImports } from './list-bare-imports.ts';

describe('listBareImports', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bare-imports-'));
    await writeFile(
      join(dir, 'entry.js'),
      'import "./a.js";\nexport { b } from "./b.js";\nimport { html } from "lit";\n',
    );
    await writeFile(join(dir, 'a.js'), 'import * as React from "react";\nexport const a = () => import("./b.js");\n');
    await writeFile(
      join(dir, 'b.js'),
      'import { readFile } from "node:fs";\nimport "./entry.js";\nexport const b = 1;\n',
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('follows relative static, dynamic and re-export imports and collects every bare one once', async () => {
    expect(await listBareImports(join(dir, 'entry.js'))).toEqual(['lit', 'node:fs', 'react']);
    expect(await listBareImports(join(dir, 'b.js'))).toEqual(['lit', 'node:fs', 'react']);
  });

  test('finds nothing in a file without imports', async () => {
    await writeFile(join(dir, 'alone.js'), 'export const alone = "import x from \\"react\\"";\n');
    expect(await listBareImports(join(dir, 'alone.js'))).toEqual([]);
  });
});
