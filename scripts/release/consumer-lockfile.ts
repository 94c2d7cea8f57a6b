/** One entry of a `package-lock.json` (lockfile version 3) `packages` table. */
export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  license?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  peer?: boolean;
  [field: string]: unknown;
}

/** A `package-lock.json` of lockfile version 3. */
export interface Lockfile {
  name: string;
  lockfileVersion: 3;
  requires: true;
  packages: Record<string, LockEntry>;
}

/** The tarball under test, as the consumer installs it. */
export interface TarballPackage {
  /** File name beside the consumer's package.json, e.g. `agent-chat-0.1.0.tgz`. */
  fileName: string;
  /** The tarball's `sha512-…` integrity. */
  integrity: string;
  /** The package.json inside the tarball. */
  packageJson: LockEntry & { name: string; version: string };
}

/** Options of {@link createConsumerPackageFiles}. */
export interface ConsumerPackageFilesOptions {
  /** The consumer project's name. */
  name: string;
  tarball: TarballPackage;
  /** Packages the consumer depends on besides the tarball (React, types), at the versions `sourceLock` pins. */
  extraDependencies: readonly string[];
  /** The lockfile whose entries pin the dependencies (the repository's, which `npm ci` put in the npm cache). */
  sourceLock: Lockfile;
  /** The npm registry URL (`npm config get registry`), for the tarball URL of entries that record none. */
  registry: string;
}

const DEPENDENCY_FLAGS = ['dev', 'devOptional', 'optional', 'peer'] as const;

/**
 * Writes the package.json and package-lock.json of an empty project that depends on the tarball
 * (`file:`) and on `extraDependencies`, with every transitive dependency (and every peer npm
 * installs with one) pinned to the entry
 * `sourceLock` resolves it to (name, version, integrity), with its registry tarball URL filled in
 * (the repository's lock omits it). With both files, `npm ci --offline` installs from the npm
 * cache alone: it reads each tarball by integrity and needs no registry metadata.
 * Throws, naming the package, when `sourceLock` lacks a dependency.
 */
export function createConsumerPackageFiles(options: ConsumerPackageFilesOptions): {
  packageJson: { name: string; private: true; type: 'module'; dependencies: Record<string, string> };
  lockfile: Lockfile;
} {
  const { tarball, sourceLock } = options;
  const copyEntry = (path: string, entry: LockEntry): LockEntry => {
    const copy = withoutDependencyFlags(entry);
    if (copy.resolved === undefined && copy.version !== undefined) {
      copy.resolved = registryTarballUrl(options.registry, packageNameAt(path), copy.version);
    }
    return copy;
  };
  const tarballPath = `node_modules/${tarball.packageJson.name}`;
  const dependencies: Record<string, string> = { [tarball.packageJson.name]: `file:${tarball.fileName}` };
  for (const name of options.extraDependencies) {
    dependencies[name] = requireEntry(sourceLock, `node_modules/${name}`, name).version ?? '*';
  }
  const packages: Record<string, LockEntry> = {
    '': { name: options.name, dependencies },
    [tarballPath]: {
      ...pickLockFields(tarball.packageJson),
      resolved: `file:${tarball.fileName}`,
      integrity: tarball.integrity,
    },
  };
  const pending: Array<{ from: string; entry: LockEntry }> = [{ from: tarballPath, entry: tarball.packageJson }];
  for (const name of options.extraDependencies) {
    const path = `node_modules/${name}`;
    packages[path] = copyEntry(path, requireEntry(sourceLock, path, name));
    pending.push({ from: path, entry: sourceLock.packages[path] as LockEntry });
  }
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const required = { ...item.entry.dependencies, ...item.entry.optionalDependencies, ...requiredPeers(item.entry) };
    for (const name of Object.keys(required)) {
      const path = resolveInLock(sourceLock, item.from, name);
      if (path === undefined) {
        if (item.entry.optionalDependencies?.[name] !== undefined) continue;
        throw new Error(`${name} (needed by ${item.from}) is not in package-lock.json; run npm install`);
      }
      if (packages[path] !== undefined) continue;
      const entry = sourceLock.packages[path] as LockEntry;
      packages[path] = copyEntry(path, entry);
      pending.push({ from: path, entry });
    }
  }
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    packageJson: { name: options.name, private: true, type: 'module', dependencies },
    lockfile: { name: options.name, lockfileVersion: 3, requires: true, packages: sorted },
  };
}

/**
 * Where Node would find `name` required from the package at lock path `from`: its own
 * `node_modules`, then each enclosing one up to the root. `undefined` when the lock has none.
 */
export function resolveInLock(lock: Lockfile, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const at = base.lastIndexOf('node_modules/');
    base = at <= 0 ? '' : base.slice(0, at - 1);
  }
}

/** The URL npm publishes a version's tarball at: `<registry><name>/-/<name without scope>-<version>.tgz`. */
export function registryTarballUrl(registry: string, name: string, version: string): string {
  const base = registry.endsWith('/') ? registry : `${registry}/`;
  return `${base}${name}/-/${name.split('/').at(-1) ?? name}-${version}.tgz`;
}

/** The package name a lock path installs (`node_modules/a/node_modules/@s/b` → `@s/b`). */
function packageNameAt(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function requireEntry(lock: Lockfile, path: string, name: string): LockEntry {
  const entry = lock.packages[path];
  if (entry === undefined) throw new Error(`${name} is not in package-lock.json; run npm install`);
  return entry;
}

/**
 * The peer dependencies npm installs along with the package (since npm 7): those not marked
 * optional. An optional peer is only used when something else installs it.
 */
function requiredPeers(entry: LockEntry): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entry.peerDependencies ?? {}).filter(
      ([name]) => entry.peerDependenciesMeta?.[name]?.optional !== true,
    ),
  );
}

/** The lock fields of a package.json: what `npm install` records for a `file:` tarball. */
function pickLockFields(packageJson: LockEntry): LockEntry {
  const fields = [
    'version',
    'license',
    'dependencies',
    'optionalDependencies',
    'engines',
    'peerDependencies',
    'peerDependenciesMeta',
  ];
  const picked: LockEntry = {};
  for (const field of fields) {
    if (packageJson[field] !== undefined) picked[field] = packageJson[field];
  }
  return picked;
}

/** The entry without `dev`/`optional`/`peer` marks: in the consumer every package is a plain dependency. */
function withoutDependencyFlags(entry: LockEntry): LockEntry {
  const copy = { ...entry };
  for (const flag of DEPENDENCY_FLAGS) delete copy[flag];
  return copy;
}
