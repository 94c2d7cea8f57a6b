import { describe, expect, test } from 'vitest';
import { describeCycle, findCycles, readImports, listSources, type ImportEdge } from './import-graph.ts';

const edges: ImportEdge[] = readImports(process.cwd(), listSources(process.cwd(), 'src'));

function report(cycles: string[][], shown: readonly ImportEdge[]): string[] {
  return cycles.map((group) => `${group.length} files:\n${describeCycle(group, shown)}`);
}

function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf('/'));
}

describe('import cycles', () => {
  test('no file of src/ is loaded, at run time, by a file it loads', () => {
    const runtime = edges.filter((edge) => !edge.typeOnly);
    expect(report(findCycles(runtime), runtime)).toEqual([]);
  });

  test('no import circle, type imports included, runs across folders of src/server', () => {
    const server = edges.filter((edge) => edge.from.startsWith('src/server/') && edge.to.startsWith('src/server/'));
    const crossing = findCycles(server).filter((group) => new Set(group.map(folderOf)).size > 1);
    expect(report(crossing, server)).toEqual([]);
  });

  test('the graph is read: a planted circle is found', () => {
    const planted: ImportEdge[] = [
      { from: 'a/x.ts', to: 'b/y.ts', typeOnly: false },
      { from: 'b/y.ts', to: 'c/z.ts', typeOnly: true },
      { from: 'c/z.ts', to: 'a/x.ts', typeOnly: false },
      { from: 'c/z.ts', to: 'd/w.ts', typeOnly: false },
    ];
    expect(findCycles(planted)).toEqual([['a/x.ts', 'b/y.ts', 'c/z.ts']]);
    expect(edges.length).toBeGreaterThan(500);
  });
});
