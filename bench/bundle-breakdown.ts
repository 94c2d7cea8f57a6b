import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Rolldown } from 'vite';
import { iifeViteConfig } from '../scripts/build/build-iife.ts';

/**
 * `tsx bench/bundle-breakdown.ts`: which source module costs how much of the script-tag IIFE.
 * Builds the IIFE as scripts/build does, with a source map, attributes every output byte to the
 * module it came from, and prints per package/folder and per module its raw bytes, the gzip of its
 * bytes alone, and its cost in the bundle: how many gzip bytes the whole file loses without it
 * (the gzip of a module alone overstates its share; the in-bundle cost is the figure to cut by).
 */
const rootDir = fileURLToPath(new URL('..', import.meta.url));
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const config = iifeViteConfig({ rootDir, entry: 'embed/index.ts', fileName: 'agent-chat.js' });
const output = await build({
  ...config,
  logLevel: 'silent',
  build: { ...config.build, write: false, sourcemap: 'hidden' },
});
const result = (Array.isArray(output) ? output[0] : output) as Rolldown.RolldownOutput;
const chunk = result.output[0];
if (!chunk.map) throw new Error('bundle-breakdown: the build produced no source map');

const pieces = attributeBytes(chunk.code, chunk.map.mappings, chunk.map.sources);
const wholeGzip = gzipLength(chunk.code);
const modules = [...new Set(pieces.map((piece) => piece.source))].map((source) => {
  const own = pieces
    .filter((piece) => piece.source === source)
    .map((piece) => piece.text)
    .join('');
  const rest = pieces
    .filter((piece) => piece.source !== source)
    .map((piece) => piece.text)
    .join('');
  return { source, raw: own.length, gzip: gzipLength(own), marginal: wholeGzip - gzipLength(rest) };
});
modules.sort((a, b) => b.raw - a.raw);

const groups = new Map<string, { raw: number; gzip: number; marginal: number }>();
for (const entry of modules) {
  const group = groupOf(entry.source);
  const current = groups.get(group) ?? { raw: 0, gzip: 0, marginal: 0 };
  groups.set(group, {
    raw: current.raw + entry.raw,
    gzip: current.gzip + entry.gzip,
    marginal: current.marginal + entry.marginal,
  });
}

console.log(`${'group'.padEnd(44)}${'raw'.padStart(9)}${'gzip alone'.padStart(12)}${'in bundle'.padStart(11)}`);
for (const [group, size] of [...groups].sort((a, b) => b[1].raw - a[1].raw)) {
  console.log(
    `${group.padEnd(44)}${String(size.raw).padStart(9)}${String(size.gzip).padStart(12)}${String(size.marginal).padStart(11)}`,
  );
}
console.log('');
for (const entry of modules.slice(0, 60)) {
  console.log(
    `${entry.source.padEnd(60)}${String(entry.raw).padStart(9)}${String(entry.gzip).padStart(8)}${String(entry.marginal).padStart(8)}`,
  );
}
console.log(`bundle-breakdown: agent-chat.js is ${chunk.code.length} bytes, ${wholeGzip} bytes gzip`);

function gzipLength(text: string): number {
  return gzipSync(text, { level: 9 }).length;
}

/** Splits the generated code, in order, into pieces each tagged with its original source. */
function attributeBytes(
  code: string,
  mappings: string,
  sources: readonly string[],
): Array<{ source: string; text: string }> {
  const pieces: Array<{ source: string; text: string }> = [];
  const lines = code.split('\n');
  let sourceIndex = 0;
  mappings.split(';').forEach((lineMappings, lineNumber) => {
    const line = lines[lineNumber] ?? '';
    const segments: Array<{ column: number; source: number }> = [];
    let column = 0;
    for (const segment of lineMappings.split(',').filter(Boolean)) {
      const values = decodeVlq(segment);
      column += values[0] ?? 0;
      if (values.length > 1) sourceIndex += values[1] ?? 0;
      segments.push({ column, source: values.length > 1 ? sourceIndex : -1 });
    }
    pieces.push({ source: '(unmapped)', text: line.slice(0, segments[0]?.column ?? line.length) });
    segments.forEach((segment, index) => {
      const end = segments[index + 1]?.column ?? line.length;
      const source = segment.source >= 0 ? shortName(sources[segment.source] ?? '?') : '(unmapped)';
      pieces.push({ source, text: line.slice(segment.column, end) });
    });
    if (lineNumber < lines.length - 1) pieces.push({ source: '(unmapped)', text: '\n' });
  });
  return pieces;
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const character of segment) {
    const digit = BASE64.indexOf(character);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >> 1) : value >> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function shortName(source: string): string {
  const inPackage = source.split('node_modules/').pop() ?? source;
  return source.includes('node_modules/') ? `npm:${inPackage}` : source.replace(/^(\.\.\/)+/, '');
}

function groupOf(source: string): string {
  if (source.startsWith('npm:'))
    return source
      .split('/')
      .slice(0, source.startsWith('npm:@') ? 2 : 1)
      .join('/');
  return source.split('/').slice(0, 2).join('/');
}
