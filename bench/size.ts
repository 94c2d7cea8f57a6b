import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { buildIife } from '../scripts/build/build-iife.ts';
import { IIFE_GZIP_BUDGET_BYTES } from '../scripts/build/check-size-budget.ts';
import { ensureBuild } from '../scripts/build/ensure-build.ts';
import { iifePlugins } from '../scripts/build/iife-plugins.ts';
import { buildPageScript } from './support/build-page-script.ts';
import { formatKb, formatRatio, formatTable } from './support/format-table.ts';

// `npm run bench:size`: gzip (level 9) and brotli (quality 11) size of dist/agent-chat.js next to
// the floor (an IIFE of lit + marked's lexer + dompurify, as ours carries them, built the same way)
// and next to peer widgets
// installed at pinned versions into a temporary folder (never into our dependencies).
// `--no-peers` skips the peers. The last line is the figure.

/** A peer widget: the pinned package and the browser files a host page loads from it. */
interface Peer {
  name: string;
  version: string;
  /** Paths inside the package; their compressed sizes are summed (one request each). */
  files: string[];
  note: string;
}

const PEERS: Peer[] = [
  {
    name: 'deep-chat',
    version: '2.4.2',
    files: ['dist/deepChat.bundle.js'],
    note: 'self-contained ESM bundle (CDN file)',
  },
  { name: 'flowise-embed', version: '3.1.6', files: ['dist/web.js'], note: 'self-contained ESM bundle (CDN file)' },
  // 1.37.0 depends on @n8n/design-system@2.37.0, which the registry does not have.
  {
    name: '@n8n/chat',
    version: '1.36.4',
    files: ['dist/chat.bundle.umd.js', 'dist/style.css'],
    note: 'self-contained UMD bundle + its required style.css',
  },
];

interface Row {
  name: string;
  bytes: number;
  gzip: number;
  brotli: number;
  note: string;
}

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let iifePath = join(rootDir, 'dist/agent-chat.js');

const ours = measure(
  await buildOurs(),
  [await readFile(iifePath)],
  'our IIFE: widget + core + lit + marked + dompurify + CSS',
);
const floor = measure(
  'floor: lit + marked + dompurify',
  [Buffer.from(await buildFloor())],
  'IIFE of the three runtime deps, stock, as ours carries them (lit, dompurify, marked)',
);
const peers = process.argv.includes('--no-peers') ? [] : await measurePeers();

if (iifePath !== join(rootDir, 'dist/agent-chat.js')) await rm(dirname(iifePath), { recursive: true, force: true });

const rows = [ours, floor, ...peers];
console.log(
  formatTable(
    ['bundle', 'raw', 'gzip -9', 'brotli -11', 'gzip vs ours', 'note'],
    rows.map((row) => [
      row.name,
      formatKb(row.bytes),
      formatKb(row.gzip),
      formatKb(row.brotli),
      formatRatio(row.gzip / ours.gzip),
      row.note,
    ]),
  ),
);
const smallestPeer = peers.reduce<Row | undefined>(
  (smallest, row) => (!smallest || row.gzip < smallest.gzip ? row : smallest),
  undefined,
);
const peerPart = smallestPeer
  ? `${formatRatio(ours.gzip / smallestPeer.gzip)} the smallest peer (${smallestPeer.name}, ${formatKb(smallestPeer.gzip)})`
  : 'peers not measured';
console.log(
  `size: agent-chat.js is ${formatKb(ours.gzip)} gzip (budget ${formatKb(IIFE_GZIP_BUDGET_BYTES)}) = ${formatRatio(ours.gzip / floor.gzip)} the floor (${formatKb(floor.gzip)}) and ${peerPart}`,
);

/**
 * Builds `dist/` unless it is up to date and returns the row name. When the full build fails for a
 * reason outside the IIFE (say a missing ESM entry), builds the IIFE alone with the same builder.
 */
async function buildOurs(): Promise<string> {
  const startedAt = Date.now();
  try {
    ensureBuild(rootDir);
    return 'agent-chat (dist/agent-chat.js)';
  } catch {
    // The build writes the IIFE before its budget check, so a fresh file means only the budget failed.
    if (existsSync(iifePath) && statSync(iifePath).mtimeMs >= startedAt - 1_000) {
      console.log('note: the build failed its gzip budget (see above); measuring the dist/agent-chat.js it just wrote');
      return 'agent-chat (dist/agent-chat.js)';
    }
    console.log('note: npm run build failed (see above); building the IIFE alone with scripts/build/build-iife.ts');
    const outDir = await mkdtemp(join(tmpdir(), 'agent-chat-bench-iife-'));
    await buildIife({ rootDir, outDir, entry: 'embed/index.ts', fileName: 'agent-chat.js' });
    iifePath = join(outDir, 'agent-chat.js');
    return 'agent-chat (IIFE built alone)';
  }
}

function measure(name: string, contents: Buffer[], note: string): Row {
  const sum = (size: (content: Buffer) => number): number =>
    contents.reduce((total, content) => total + size(content), 0);
  return {
    name,
    bytes: sum((content) => content.byteLength),
    gzip: sum((content) => gzipSync(content, { level: 9 }).byteLength),
    brotli: sum(
      (content) =>
        brotliCompressSync(content, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength },
        }).byteLength,
    ),
    note,
  };
}

/**
 * The floor IIFE: the three runtime dependencies as the shipped IIFE carries them, kept alive
 * through `globalThis`: every export of lit and dompurify, and marked's lexer (whose module keeps
 * all of marked alive through its global instance), built with the shipped IIFE's plugins (the
 * Terser second pass), so the floor carries each dependency exactly as ours does: stock.
 */
async function buildFloor(): Promise<string> {
  const entryId = '\0agent-chat-bench-floor';
  const floorEntry: Plugin = {
    name: 'agent-chat-bench:floor-entry',
    // Vite's library mode hands the entry over as a path under the root.
    resolveId: (id) => (id.endsWith('agent-chat-bench-floor') ? entryId : null),
    load: (id) =>
      id === entryId
        ? "import * as lit from 'lit';\nimport { getDefaults, Lexer } from 'marked';\nimport DOMPurify from 'dompurify';\nglobalThis.agentChatBenchFloor = { lit, getDefaults, Lexer, DOMPurify };\n"
        : null,
  };
  // The same settings and plugins as scripts/build/build-iife.ts: es2022, minified, production, one file.
  return buildPageScript({
    rootDir,
    entry: 'agent-chat-bench-floor',
    plugins: [floorEntry, ...iifePlugins()],
  });
}

/** Installs the pinned peers into a temporary folder and measures their browser files; [] when offline. */
async function measurePeers(): Promise<Row[]> {
  const prefix = await mkdtemp(join(tmpdir(), 'agent-chat-bench-peers-'));
  try {
    const specs = PEERS.map((peer) => `${peer.name}@${peer.version}`);
    console.log(`installing peers into ${prefix}: ${specs.join(' ')} (about a minute)`);
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          prefix,
          '--no-save',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          ...specs,
        ],
        {
          cwd: prefix,
          stdio: ['ignore', 'ignore', 'pipe'],
          timeout: 300_000,
        },
      );
    } catch (error) {
      const stderr =
        (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-3).join(' | ') ?? String(error);
      console.log(`peers skipped: npm install failed (registry unreachable?): ${stderr}`);
      return [];
    }
    const rows: Row[] = [];
    for (const peer of PEERS) {
      const packageDir = join(prefix, 'node_modules', peer.name);
      const contents = await Promise.all(peer.files.map((file) => readFile(join(packageDir, file))));
      rows.push(measure(`${peer.name}@${peer.version}`, contents, `${peer.files.join(' + ')}: ${peer.note}`));
    }
    return rows;
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
}
