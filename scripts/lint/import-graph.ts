import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import of a file of the tree: `typeOnly` when nothing of it is loaded at run time. */
export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.test\.tsx?$/;

/** Every source file under `root` (tests aside), as paths relative to `cwd` with forward slashes. */
export function listSources(cwd: string, root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        found.push(toPosix(relative(cwd, path)));
      }
    }
  };
  walk(resolve(cwd, root));
  return found.sort();
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/** Whether an import or export-from declaration loads nothing at run time. */
function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return true;
    const clause = statement.exportClause;
    return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0
      ? clause.elements.every((element) => element.isTypeOnly)
      : false;
  }
  const clause = statement.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0
    ? bindings.elements.every((element) => element.isTypeOnly)
    : false;
}

/**
 * The static imports and export-froms among `files` (a dynamic `import()` loads lazily and is left
 * out): relative specifiers only, resolved as written (the tree imports with explicit extensions).
 */
export function readImports(cwd: string, files: readonly string[]): ImportEdge[] {
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const text = readFileSync(resolve(cwd, from), 'utf8');
    const source = ts.createSourceFile(from, text, ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = toPosix(join(dirname(from), specifier.text.replace(/\.js$/, '.ts')));
      const to = known.has(target) ? target : known.has(`${target}x`) ? `${target}x` : undefined;
      if (to !== undefined) edges.push({ from, to, typeOnly: isTypeOnly(statement) });
    }
  }
  return edges;
}

/** The strongly connected groups of more than one file (or a file importing itself), each sorted. */
export function findCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node)!;
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      if (group.length > 1 || children.includes(frame.node)) groups.push(group.sort());
    }
  }
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The arrows that tie one cycle, `from -> to` a line, for a failure message. */
export function describeCycle(group: readonly string[], edges: readonly ImportEdge[]): string {
  const members = new Set(group);
  return edges
    .filter((edge) => members.has(edge.from) && members.has(edge.to))
    .map((edge) => `  ${edge.from} -> ${edge.to}${edge.typeOnly ? ' (type)' : ''}`)
    .join('\n');
}
