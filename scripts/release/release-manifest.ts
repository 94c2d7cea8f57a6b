import { createHash } from 'node:crypto';
import { describeFile, type ManifestFile } from '../build/create-manifest.ts';

/** What a release manifest records for one file of the release folder. */
export interface ReleaseFile extends ManifestFile {
  /** SHA-256 of the file, lowercase hex (what `sha256sum` prints). */
  sha256: string;
}

/** `release/<version>/manifest.json`: what was released, from which commit, speaking which protocol. */
export interface ReleaseManifest {
  name: string;
  version: string;
  /** True for a `--candidate` pack, which may come from a checkout with uncommitted changes. */
  isCandidate: boolean;
  /** The commit checked out when packing. */
  commit: string;
  /** Files that differed from `commit` (only ever non-empty for a candidate). */
  uncommittedChanges: string[];
  protocol: {
    /** `PROTOCOL_VERSION` of the packed build (`agent-chat/core`). */
    version: string;
    /** The normative contract document and its SHA-256 (hex). */
    contract: { path: string; sha256: string };
  };
  /** Every other file of the release folder by name, sorted. */
  files: Record<string, ReleaseFile>;
}

/** SHA-256 of `content` as lowercase hex. */
export function sha256Hex(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Describes one release file: bytes, gzip size, SHA-256 and its `sha384-…` SRI integrity. */
export function describeReleaseFile(content: Uint8Array): ReleaseFile {
  return { ...describeFile(content), sha256: sha256Hex(content) };
}

/** Builds the release manifest; `files` are the folder's other files by name, `contract` the contract document's text. */
export function createReleaseManifest(options: {
  name: string;
  version: string;
  isCandidate: boolean;
  commit: string;
  uncommittedChanges: readonly string[];
  protocolVersion: string;
  contract: { path: string; content: Uint8Array };
  files: ReadonlyMap<string, Uint8Array>;
}): ReleaseManifest {
  const files: Record<string, ReleaseFile> = {};
  for (const name of [...options.files.keys()].sort()) {
    files[name] = describeReleaseFile(options.files.get(name) as Uint8Array);
  }
  return {
    name: options.name,
    version: options.version,
    isCandidate: options.isCandidate,
    commit: options.commit,
    uncommittedChanges: [...options.uncommittedChanges],
    protocol: {
      version: options.protocolVersion,
      contract: { path: options.contract.path, sha256: sha256Hex(options.contract.content) },
    },
    files,
  };
}

/**
 * Compares a release folder's files (by name, `manifest.json` excluded) with its manifest and
 * returns one line per difference (missing, unlisted, or different content); empty when they match.
 */
export function findManifestMismatches(manifest: ReleaseManifest, files: ReadonlyMap<string, Uint8Array>): string[] {
  const problems: string[] = [];
  for (const [name, expected] of Object.entries(manifest.files)) {
    const content = files.get(name);
    if (content === undefined) problems.push(`${name}: listed in manifest.json but missing`);
    else if (sha256Hex(content) !== expected.sha256) problems.push(`${name}: content differs from manifest.json`);
  }
  for (const name of files.keys()) {
    if (manifest.files[name] === undefined) problems.push(`${name}: not listed in manifest.json`);
  }
  return problems;
}
