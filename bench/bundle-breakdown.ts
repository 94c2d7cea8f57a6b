import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Rolldown } from 'vite';
import { dropLazyDefine, minifyCssTemplates } from '../scripts/build/iife-plugins.ts';

/**
 * `tsx bench/bundle-breakdown.ts`: which source module costs how much of the script-tag IIFE.
 * Builds the IIFE as scripts/build does, with a source map, attributes every output byte to the
 * module it came from, and prints raw and gzip bytes per package/folder and per module. The gzip
 * of a module alone overstates its share of the whole file; compare modules with each other.
 */
const rootDir = fileURLToPath(new URL('..', import.meta.url));
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const output = await build({
  configFile: false,
  root: rootDir,
  logLevel: 'silent',
  publicDir: false,
  plugins: [dropLazyDefine(), minifyCssTemplates()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    write: false,
    target: 'es2022',
    minify: true,
    sourcemap: true,
    lib: { entry: 'embed/index.ts', formats: ['iife'], name: 'AgentChatBundle', fileName: () => 'agent-chat.js' },
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
const result = (Array.isArray(output) ? output[0] : output) as Rolldown.RolldownOutput;
const chunk = result.output[0];
if (!chunk.map) throw new Error('bundle-breakdown: the build produced no source map');

const textBySource = attributeBytes(chunk.code, chunk.map.mappings, chunk.map.sources);
const modules = [...textBySource].map(([source, text]) => ({ source, raw: text.length, gzip: gzipLength(text) }));
modules.sort((a, b) => b.raw - a.raw);

const groups = new Map<string, { raw: number; gzip: number }>();
for (const entry of modules) {
  const group = groupOf(entry.source);
  const current = groups.get(group) ?? { raw: 0, gzip: 0 };
  groups.set(group, { raw: current.raw + entry.raw, gzip: current.gzip + entry.gzip });
}

console.log(`${'group'.padEnd(44)}${'raw'.padStart(9)}${'gzip alone'.padStart(12)}`);
for (const [group, size] of [...groups].sort((a, b) => b[1].raw - a[1].raw)) {
  console.log(`${group.padEnd(44)}${String(size.raw).padStart(9)}${String(size.gzip).padStart(12)}`);
}
console.log('');
for (const entry of modules.slice(0, 60)) {
  console.log(`${entry.source.padEnd(60)}${String(entry.raw).padStart(9)}${String(entry.gzip).padStart(8)}`);
}
console.log(`bundle-breakdown: agent-chat.js is ${chunk.code.length} bytes, ${gzipLength(chunk.code)} bytes gzip`);

function gzipLength(text: string): number {
  return gzipSync(text, { level: 9 }).length;
}

/** Splits the generated code into pieces per original source, following the VLQ mappings. */
function attributeBytes(code: string, mappings: string, sources: readonly string[]): Map<string, string> {
  const pieces = new Map<string, string[]>();
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
    segments.forEach((segment, index) => {
      const end = segments[index + 1]?.column ?? line.length;
      const name = segment.source >= 0 ? shortName(sources[segment.source] ?? '?') : '(unmapped)';
      const list = pieces.get(name) ?? [];
      list.push(line.slice(segment.column, end));
      pieces.set(name, list);
    });
  });
  return new Map([...pieces].map(([name, list]) => [name, list.join('')]));
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
  if (source.startsWith('npm:')) return source.split('/').slice(0, source.startsWith('npm:@') ? 2 : 1).join('/');
  return source.split('/').slice(0, 2).join('/');
}
