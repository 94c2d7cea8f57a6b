/**
 * `npm run parts:sync`: writes the parts' `exports` and `sideEffects` entries of package.json from
 * src/parts/part-table.ts (scripts/build/package-parts.ts). `--check` writes nothing and exits
 * non-zero when package.json differs from what the table makes (package-parts.test.ts checks it too).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPackageParts, type PackageParts } from './package-parts.ts';

const path = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'package.json');
const text = await readFile(path, 'utf8');
const next = `${JSON.stringify(withPackageParts(JSON.parse(text) as PackageParts), null, 2)}\n`;
if (next === text) {
  console.log('package.json: the parts’ exports and sideEffects match src/parts/part-table.ts');
} else if (process.argv.includes('--check')) {
  console.error(
    'package.json: the parts’ exports or sideEffects differ from src/parts/part-table.ts; run npm run parts:sync',
  );
  process.exit(1);
} else {
  await writeFile(path, next);
  console.log('package.json: wrote the parts’ exports and sideEffects from src/parts/part-table.ts');
}
