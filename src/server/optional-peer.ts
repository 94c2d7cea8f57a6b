import { createRequire } from 'node:module';

/**
 * Loads an optional peer dependency (`better-sqlite3`, `@redis/client`, `prom-client`, an AI SDK
 * provider) with Node's `require` when a feature first needs it, never when `agent-chat/server`
 * is imported. The name is not a literal and the ignore comments tell bundlers to leave the call
 * alone, so a product that bundles the server (Next.js with Turbopack or webpack, Vite's SSR
 * build) neither needs the peer installed to build nor gets the call replaced by a stub: Node
 * resolves it from the package's folder at run time. Throws an error naming what needs the
 * package and its install line when it is not installed; any other failure (a native addon built
 * for another Node) is thrown as it is.
 */
export function requireOptionalPeer<T>(name: string, neededBy: string): T {
  try {
    return createRequire(import.meta.url)(/* webpackIgnore: true */ /* turbopackIgnore: true */ name) as T;
  } catch (error) {
    throw isMissingPackage(error, name) ? missingPeerError(name, neededBy, error) : error;
  }
}

/** The error of a missing optional peer: what needs it and how to install it. */
export function missingPeerError(name: string, neededBy: string, cause: unknown): Error {
  return new Error(`${neededBy} needs the ${name} package: npm install ${name}`, { cause });
}

/**
 * Whether `error` says that `name` itself cannot be found (`require`'s `MODULE_NOT_FOUND` or
 * `import()`'s `ERR_MODULE_NOT_FOUND`), not a file or a dependency inside it.
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  return error.message.includes(`'${name}'`) || error.message.includes(`'${name}/`);
}
