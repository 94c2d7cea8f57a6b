import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the banner needs of an installed package's package.json. */
export interface PackageInfo {
  name: string;
  license?: string;
  dependencies?: Record<string, string>;
}

/** A package named in the banner: a direct dependency (or a bundled package of its own licence). */
export interface BundledPackage {
  name: string;
  license: string;
}

/**
 * The legal comment at the top of the shipped IIFE: the package, its version, its licence and
 * copyright lines from `LICENSE`, and the licences of the bundled code (see {@link nameBundledPackages}).
 * Starts with `/*!`, the form minifiers keep, and is added after minification anyway.
 */
export async function createLicenceBanner(options: { rootDir: string; moduleIds: readonly string[] }): Promise<string> {
  const readPackage = async (name: string): Promise<PackageInfo> =>
    JSON.parse(await readFile(join(options.rootDir, 'node_modules', name, 'package.json'), 'utf8')) as PackageInfo;
  const own = JSON.parse(await readFile(join(options.rootDir, 'package.json'), 'utf8')) as PackageInfo & {
    version: string;
  };
  const installed = new Map<string, PackageInfo>();
  const pending = [...Object.keys(own.dependencies ?? {}), ...listBundledPackageNames(options.moduleIds)];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (installed.has(name)) continue;
    const info = await readPackage(name);
    installed.set(name, info);
    pending.push(...Object.keys(info.dependencies ?? {}));
  }
  const bundled = nameBundledPackages({
    bundledNames: listBundledPackageNames(options.moduleIds),
    directDependencies: Object.keys(own.dependencies ?? {}),
    installed,
  });
  const licenseText = await readFile(join(options.rootDir, 'LICENSE'), 'utf8');
  return formatLicenceBanner({ name: own.name, version: own.version, licenseText, bundled });
}

/** The packages the module ids come from (the folder after their last `node_modules/`), sorted, each once. */
export function listBundledPackageNames(moduleIds: readonly string[]): string[] {
  const marker = '/node_modules/';
  const names = new Set<string>();
  for (const id of moduleIds) {
    const path = id.split('\\').join('/');
    const at = path.lastIndexOf(marker);
    if (at < 0) continue;
    const [first = '', second = ''] = path.slice(at + marker.length).split('/');
    names.add(first.startsWith('@') ? `${first}/${second}` : first);
  }
  return [...names].sort();
}

/**
 * Names the bundled code by the direct dependencies that bring it: a bundled package counts under
 * the first direct dependency whose dependency tree holds it and whose licence it shares (so
 * `lit-html` counts under `lit`); one with no such dependency is named itself. Sorted by name.
 */
export function nameBundledPackages(options: {
  bundledNames: readonly string[];
  directDependencies: readonly string[];
  installed: ReadonlyMap<string, PackageInfo>;
}): BundledPackage[] {
  const licenseOf = (name: string): string => options.installed.get(name)?.license ?? 'UNLICENSED';
  const treeOf = (root: string): Set<string> => {
    const tree = new Set<string>();
    const pending = [root];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (tree.has(name)) continue;
      tree.add(name);
      pending.push(...Object.keys(options.installed.get(name)?.dependencies ?? {}));
    }
    return tree;
  };
  const trees = options.directDependencies.map((name) => ({ name, tree: treeOf(name) }));
  const named = new Set<string>();
  for (const name of options.bundledNames) {
    const owner = trees.find((entry) => entry.tree.has(name) && licenseOf(entry.name) === licenseOf(name));
    named.add(owner?.name ?? name);
  }
  return [...named].sort().map((name) => ({ name, license: licenseOf(name) }));
}

/** Formats the banner; `licenseText` must open with the licence's name and hold a `Copyright` line. */
export function formatLicenceBanner(options: {
  name: string;
  version: string;
  licenseText: string;
  bundled: readonly BundledPackage[];
}): string {
  const licenceName = options.licenseText.trim().split('\n')[0]?.trim() ?? '';
  const copyright = /^Copyright .+$/m.exec(options.licenseText)?.[0].trim();
  if (!licenceName || !copyright) throw new Error('LICENSE must open with the licence name and hold a Copyright line');
  const parts = [`${options.name} ${options.version}`, licenceName, copyright];
  if (options.bundled.length > 0) {
    const licences = options.bundled.map((item) => `${item.name} (${item.license.replace(/^\((.*)\)$/, '$1')})`);
    parts.push(`bundles ${licences.join(', ')}`);
  }
  return `/*! ${parts.join(' | ').replaceAll('*/', '* /')} */`;
}
