import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** What the manifest records for one shipped file. */
export interface ManifestFile {
  bytes: number;
  gzipBytes: number;
  /** Brotli size at quality 11, what a CDN serving `br` sends. */
  brotliBytes: number;
  /** Subresource Integrity value, `sha384-<base64>`. */
  integrity: string;
}

/** `dist/manifest.json`: the version plus every shipped file keyed by its path under `dist/`. */
export interface BuildManifest {
  name: string;
  version: string;
  files: Record<string, ManifestFile>;
}

/** Measures one file: raw size, gzip size (level 9), brotli size (quality 11) and its SHA-384 SRI integrity. */
export function describeFile(content: Uint8Array): ManifestFile {
  return {
    bytes: content.byteLength,
    gzipBytes: gzipSync(content, { level: 9 }).byteLength,
    brotliBytes: brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength },
    }).byteLength,
    integrity: `sha384-${createHash('sha384').update(content).digest('base64')}`,
  };
}

/** Builds the manifest from file contents keyed by their `dist/`-relative path, sorted by path. */
export function createManifest(options: {
  name: string;
  version: string;
  files: ReadonlyMap<string, Uint8Array>;
}): BuildManifest {
  const paths = [...options.files.keys()].sort();
  const files: Record<string, ManifestFile> = {};
  for (const path of paths) files[path] = describeFile(options.files.get(path) as Uint8Array);
  return { name: options.name, version: options.version, files };
}
