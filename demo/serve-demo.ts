import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { PART_TABLE, partFileName } from '../src/parts/part-table.ts';
import { demoOrderCard } from '../src/server/tools/demo-widgets.ts';
import { ESM_IMPORT_MAP, importMapHashSource, VENDOR_PACKAGES } from './esm-import-map.ts';

/** Options of {@link createDemoStaticHandler}. */
export interface DemoStaticOptions {
  /** Repository root (holds `demo/`, `dist/` and `node_modules/`). */
  rootDir: string;
}

/** Serves one request if it is a demo page or asset; resolves false to let the caller answer it. */
export type DemoStaticHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/**
 * The Trusted Types policies the widget creates: its own (the Markdown sanitizer's, handed to
 * DOMPurify, which also passes the script URLs of its sibling files) and Lit's, and that of the
 * conversations panel's copy of Lit (the sibling file `agent-chat.conversations.js`).
 */
export const TRUSTED_TYPES_POLICIES = 'agent-chat lit-html agent-chat-conversations';

/**
 * Builds the policy every demo page starts from: scripts, styles and requests from the page's own
 * origin only (the IIFE is still pinned by its SRI hash), no images, plugins, `<base>` or framing;
 * `inlineScriptHashes` allow exactly those inline scripts.
 */
function buildDemoCsp(inlineScriptHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes].join(' '),
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of the main demo page (`/`). */
export const DEMO_CSP = buildDemoCsp();

/** The policy `/strict.html` is served with (issue 6): {@link DEMO_CSP} plus Trusted Types for the widget's policies. */
export const STRICT_CSP = [
  DEMO_CSP,
  "require-trusted-types-for 'script'",
  `trusted-types ${TRUSTED_TYPES_POLICIES}`,
].join('; ');

/** Headers of every demo page besides its CSP: no referrer leaves the demo, no type sniffing. */
export const DEMO_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

const PAGES: Record<string, { file: string; csp: () => string }> = {
  '/': { file: 'index.html', csp: () => DEMO_CSP },
  '/index.html': { file: 'index.html', csp: () => DEMO_CSP },
  '/strict.html': { file: 'strict.html', csp: () => STRICT_CSP },
  '/conversations.html': { file: 'conversations.html', csp: () => DEMO_CSP },
  // Every state of the widget from fixed data (no server needed): the screenshots come from it.
  '/gallery.html': { file: 'gallery.html', csp: () => DEMO_CSP },
  // The import map is the one inline script, allowed by its hash.
  '/esm.html': { file: 'esm.html', csp: () => buildDemoCsp([importMapHashSource()]) },
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The built files the demo serves from `dist/` by name. */
const BUILT_FILES = [
  '/agent-chat.js',
  '/agent-chat.zh-CN.js',
  // The optional parts' files (src/parts/part-table.ts).
  ...PART_TABLE.map(({ name }) => `/${partFileName(name)}`),
  '/agent-chat-tools.js',
  '/manifest.json',
];

/**
 * Creates the demo's static handler: the pages (`/`, `/strict.html`, `/esm.html`, `/conversations.html`, `/gallery.html`, with the IIFEs'
 * integrity filled in from `dist/manifest.json` at request time, each with its CSP and
 * {@link DEMO_PAGE_HEADERS}), `/demo/*` page scripts and CSS,
 * the build (`/agent-chat.js`, `/agent-chat-tools.js`, the locale pack `/agent-chat.zh-CN.js`, the launcher `/agent-chat.launcher.js`,
 * the conversations panel `/agent-chat.conversations.js`, the tool cards `/agent-chat.tool-cards.js`, the turn actions `/agent-chat.turn-actions.js`, the composer extras `/agent-chat.composer-extras.js`, the highlighter `/agent-chat.highlight.js`, `/manifest.json`, `/esm/*`) and, for the import map of `/esm.html`,
 * `/vendor/<lit|marked|dompurify…>/*` from `node_modules`. Never serves outside those folders.
 */
export function createDemoStaticHandler(options: DemoStaticOptions): DemoStaticHandler {
  const demoDir = join(options.rootDir, 'demo');
  const distDir = join(options.rootDir, 'dist');
  const modulesDir = join(options.rootDir, 'node_modules');
  return async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const path = new URL(request.url ?? '/', 'http://demo.invalid').pathname;
    const page = PAGES[path];
    if (page) {
      const html = await renderPage({ demoDir, distDir, file: page.file });
      send(
        request,
        response,
        200,
        {
          'Content-Type': TYPES['.html'] as string,
          ...DEMO_PAGE_HEADERS,
          'Content-Security-Policy': page.csp(),
        },
        html,
      );
      return true;
    }
    if (BUILT_FILES.includes(path)) return serveFile(request, response, distDir, path.slice(1));
    if (path.startsWith('/esm/')) return serveFile(request, response, join(distDir, 'esm'), path.slice('/esm/'.length));
    if (path.startsWith('/demo/') && ['.js', '.css'].includes(extname(path))) {
      return serveFile(request, response, demoDir, path.slice('/demo/'.length));
    }
    if (path.startsWith('/vendor/')) {
      const rest = path.slice('/vendor/'.length);
      const vendor = VENDOR_PACKAGES.find((name) => rest.startsWith(`${name}/`));
      if (vendor && ['.js', '.mjs'].includes(extname(rest))) {
        return serveFile(request, response, join(modulesDir, vendor), rest.slice(vendor.length + 1));
      }
    }
    return false;
  };
}

async function renderPage(options: { demoDir: string; distDir: string; file: string }): Promise<string> {
  const html = await readFile(join(options.demoDir, options.file), 'utf8');
  let files: Record<string, { integrity: string }> = {};
  try {
    files = (
      JSON.parse(await readFile(join(options.distDir, 'manifest.json'), 'utf8')) as {
        files: Record<string, { integrity: string }>;
      }
    ).files;
  } catch {
    // No build yet: the page still loads and its script tags fail visibly (run `npm run build`).
  }
  return html
    .replaceAll('{{AGENT_CHAT_INTEGRITY}}', files['agent-chat.js']?.integrity ?? '')
    .replaceAll('{{AGENT_CHAT_ZH_CN_INTEGRITY}}', files['agent-chat.zh-CN.js']?.integrity ?? '')
    .replaceAll('{{AGENT_CHAT_TOOLS_INTEGRITY}}', files['agent-chat-tools.js']?.integrity ?? '')
    .replaceAll('{{ESM_IMPORT_MAP}}', ESM_IMPORT_MAP)
    .replaceAll('{{DEMO_ORDER_CARD}}', jsonInScript(demoOrderCard('A-1042')));
}

/** `value` as JSON that cannot end the `<script type="application/json">` it is put in. */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

async function serveFile(
  request: IncomingMessage,
  response: ServerResponse,
  baseDir: string,
  relativePath: string,
): Promise<boolean> {
  let target: string;
  try {
    target = normalize(join(baseDir, decodeURIComponent(relativePath)));
  } catch {
    return false;
  }
  if (!target.startsWith(baseDir + sep)) return false;
  let body: Buffer;
  try {
    body = await readFile(target);
  } catch {
    return false;
  }
  const type = TYPES[extname(target)] ?? 'application/octet-stream';
  // `Access-Control-Allow-Origin` lets another origin load the bundle with `crossorigin` + SRI.
  send(
    request,
    response,
    200,
    { 'Content-Type': type, 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*' },
    body,
  );
  return true;
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
): void {
  response.writeHead(status, {
    ...headers,
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
