import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { build } from 'vite';
import { createConsumerPackageFiles, type Lockfile, type TarballPackage } from './consumer-lockfile.ts';

const execFileAsync = promisify(execFile);

/**
 * What the consumer installs besides the tarball: React for the wrapper's page, types for the
 * strict compiles, Express for the five-minute recipe's Express server.
 */
export const CONSUMER_DEPENDENCIES = ['@lit/react', '@types/node', '@types/react', 'express', 'react', 'react-dom'];

/** Options of {@link installConsumerProject}. */
export interface InstallConsumerOptions {
  /** The repository root: its `package-lock.json` pins the consumer's dependencies. */
  rootDir: string;
  /** The fixture files copied into the project (`scripts/release/consumer/`). */
  fixturesDir: string;
  /** The tarball in the release folder. */
  tarballPath: string;
}

/**
 * Creates an empty project in the system temp folder (outside the repository, so nothing resolves
 * back into it), copies the fixtures and the tarball in, and installs with `npm ci --offline`:
 * the tarball from its own file, every dependency from the npm cache by integrity (see
 * `consumer-lockfile.ts`). Returns the project folder (the caller removes it). Rejects with npm's
 * output on failure, leaving nothing behind.
 */
export async function installConsumerProject(options: InstallConsumerOptions): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-chat-package-'));
  try {
    await populateConsumerProject(dir, options);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

async function populateConsumerProject(dir: string, options: InstallConsumerOptions): Promise<void> {
  await cp(options.fixturesDir, dir, { recursive: true });
  await installTarballOffline(dir, {
    rootDir: options.rootDir,
    tarballPath: options.tarballPath,
    name: 'agent-chat-consumer',
    dependencies: CONSUMER_DEPENDENCIES,
  });
}

/** Options of {@link installTarballOffline}. */
export interface InstallTarballOptions {
  /** The repository root: its `package-lock.json` pins the dependencies. */
  rootDir: string;
  /** The tarball in the release folder. */
  tarballPath: string;
  /** The project's name in its package.json. */
  name: string;
  /** What the project depends on besides the tarball, at the versions the repository's lock pins. */
  dependencies: readonly string[];
  /** The project's own package.json fields to keep (scripts, type); its dependencies are replaced. */
  packageJson?: Record<string, unknown>;
}

/**
 * Installs the tarball and `dependencies` into the project folder `dir` with `npm ci --offline`:
 * the tarball from its own file, every dependency from the npm cache by integrity (see
 * `consumer-lockfile.ts`). Writes the project's package.json (with `packageJson`'s other fields)
 * and package-lock.json. Rejects with npm's output on failure.
 */
export async function installTarballOffline(dir: string, options: InstallTarballOptions): Promise<void> {
  const tarballBytes = await readFile(options.tarballPath);
  const fileName = basename(options.tarballPath);
  await writeFile(join(dir, fileName), tarballBytes);
  const { stdout: packageJsonText } = await execFileAsync('tar', ['-xzOf', fileName, 'package/package.json'], {
    cwd: dir,
  });
  const tarball: TarballPackage = {
    fileName,
    integrity: `sha512-${createHash('sha512').update(tarballBytes).digest('base64')}`,
    packageJson: JSON.parse(packageJsonText) as TarballPackage['packageJson'],
  };
  const sourceLock = JSON.parse(await readFile(join(options.rootDir, 'package-lock.json'), 'utf8')) as Lockfile;
  const { stdout: registry } = await execFileAsync('npm', ['config', 'get', 'registry'], { cwd: options.rootDir });
  const files = createConsumerPackageFiles({
    name: options.name,
    tarball,
    extraDependencies: options.dependencies,
    sourceLock,
    registry: registry.trim(),
  });
  const { dependencies: _own, devDependencies: _ownDev, ...kept } = options.packageJson ?? {};
  const packageJson = { ...kept, ...files.packageJson };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  await writeFile(join(dir, 'package-lock.json'), `${JSON.stringify(files.lockfile, null, 2)}\n`);
  try {
    await execFileAsync('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir });
  } catch (error) {
    const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error);
    throw new Error(
      `npm ci --offline failed in ${options.name}; its dependencies come from the npm cache, so run npm ci in the repository first.\n${output}`,
    );
  }
}

/** A running `server.mjs` of the consumer project. */
export interface ConsumerServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts the consumer's `server.mjs` (plain Node, the installed package only) and resolves with its URL. */
export async function startConsumerServer(dir: string): Promise<ConsumerServer> {
  const child = spawn(process.execPath, ['server.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(line.replace(/^listening /, '')));
    child.once('exit', (code) => reject(new Error(`server.mjs exited with ${code} before listening`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(forced);
    },
  };
}

/** Builds the consumer's React page (`react/`) with Vite into `public/react/`, resolving only the project's packages. */
export async function buildReactPage(dir: string): Promise<void> {
  await build({
    configFile: false,
    root: join(dir, 'react'),
    base: '/react/',
    logLevel: 'warn',
    build: { outDir: join(dir, 'public/react'), emptyOutDir: true },
  });
}
