import { createHash } from 'node:crypto';

/**
 * The import map `/esm.html` uses to load the ESM build, whose `lit`, `marked` and `dompurify`
 * imports stay bare: each maps to the package's browser file under `/vendor/` (served from
 * `node_modules`). A product's bundler does this job in real use.
 */
export const ESM_IMPORT_MAP = JSON.stringify({
  imports: {
    lit: '/vendor/lit/index.js',
    'lit/': '/vendor/lit/',
    'lit-html': '/vendor/lit-html/lit-html.js',
    'lit-html/': '/vendor/lit-html/',
    'lit-element': '/vendor/lit-element/index.js',
    'lit-element/': '/vendor/lit-element/',
    '@lit/reactive-element': '/vendor/@lit/reactive-element/reactive-element.js',
    '@lit/reactive-element/': '/vendor/@lit/reactive-element/',
    marked: '/vendor/marked/lib/marked.esm.js',
    dompurify: '/vendor/dompurify/dist/purify.es.mjs',
  },
});

/** The CSP `script-src` source that allows exactly the inline import map above (and nothing else inline). */
export function importMapHashSource(): string {
  return `'sha256-${createHash('sha256').update(ESM_IMPORT_MAP).digest('base64')}'`;
}

/** The packages `/vendor/` may serve, nothing else from `node_modules`. */
export const VENDOR_PACKAGES = [
  'lit',
  'lit-html',
  'lit-element',
  '@lit/reactive-element',
  'marked',
  'dompurify',
] as const;
