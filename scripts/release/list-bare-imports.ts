import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The bare specifiers (packages, `node:` built-ins) an ES module reaches: its static and dynamic
 * imports and re-exports, following relative ones through the files they name. Sorted, each once.
 */
export async function listBareImports(entryFile: string): Promise<string[]> {
  const bare = new Set<string>();
  const visited = new Set<string>();
  const pending = [resolve(entryFile)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (visited.has(file)) continue;
    visited.add(file);
    const { importedFiles } = ts.preProcessFile(await readFile(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith('./') || fileName.startsWith('../')) pending.push(resolve(dirname(file), fileName));
      else bare.add(fileName);
    }
  }
  return [...bare].sort();
}
