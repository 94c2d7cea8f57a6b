import { expect } from '@playwright/test';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Browser } from 'playwright';
import { installHostProject, runHostScript, startHost } from './host-project.ts';

/**
 * One host of the matrix: an example project in `examples/<example>/` that a product could copy,
 * with its own package.json (`agent-chat` plus the host's packages) and `build`/`start` scripts.
 */
export interface HostSpec {
  /** What the test is called, e.g. `Next.js App Router`. */
  name: string;
  /** The folder under `examples/`. */
  example: string;
  /** The scripts that build it, each a variant built and served in turn (e.g. Turbopack, then webpack). */
  builds: readonly string[];
  /** The script that serves the built app on `PORT`. */
  start: string;
  /** The page that mounts the widget. */
  pagePath: string;
}

/** The hosts the release is installed into (docs/release.md, "Hosts"). */
export const HOSTS: readonly HostSpec[] = [
  { name: 'Next.js App Router', example: 'nextjs', builds: ['build', 'build:webpack'], start: 'start', pagePath: '/' },
  { name: 'Plain HTML (script tag)', example: 'five-minutes', builds: ['build'], start: 'start', pagePath: '/' },
  { name: 'Vite + React 19', example: 'vite-react', builds: ['build'], start: 'start', pagePath: '/' },
  { name: 'Vue 3 + Vite', example: 'vue', builds: ['build'], start: 'start', pagePath: '/' },
  { name: 'SvelteKit (adapter-node)', example: 'sveltekit', builds: ['build'], start: 'start', pagePath: '/' },
];

/** What one host took, for the release notes: install, each build, start, and the first answer. */
export interface HostTimes {
  host: string;
  build: string;
  installMs: number;
  buildMs: number;
  startMs: number;
  firstAnswerMs: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Declares one test per host and build: install the tarball into the example copied out of the
 * repository, build it, serve it, and in Chromium send a message through the widget the page
 * mounts and read its answer. The page's uncaught errors fail it. Prints each host's times.
 */
export function describeHosts(options: {
  rootDir: string;
  tarballPath: string;
  browser: () => Browser;
  hosts?: readonly HostSpec[];
}): void {
  const times: HostTimes[] = [];
  describe('hosts: the release installed into product projects', () => {
    after(() => {
      if (times.length > 0) console.log(`host times\n${JSON.stringify(times, null, 2)}`);
    });
    for (const host of options.hosts ?? HOSTS) {
      test(`${host.name}: installs the tarball, builds, serves and answers`, { timeout: 900_000 }, async () => {
        const installedAt = performance.now();
        const project = await installHostProject({
          rootDir: options.rootDir,
          exampleDir: join(options.rootDir, 'examples', host.example),
          tarballPath: options.tarballPath,
        });
        const installMs = performance.now() - installedAt;
        try {
          for (const build of host.builds) {
            const buildMs = await runHostScript(project, build, 600_000);
            const running = await startHost(project, {
              script: host.start,
              port: await freePort(),
              readyPath: host.pagePath,
              timeoutMs: 120_000,
            });
            const page = await options.browser().newPage();
            const problems: string[] = [];
            page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
            try {
              const askedAt = performance.now();
              await page.goto(`${running.origin}${host.pagePath}`);
              const widget = page.locator('agent-chat').first();
              const input = widget.locator('[part~="input"]');
              await input.fill(`/echo answered in ${host.example}`);
              await input.press('Enter');
              await expect(widget.locator('[part~="assistant-message"]').last()).toContainText(
                `answered in ${host.example}`,
                { timeout: 60_000 },
              );
              times.push({
                host: host.name,
                build,
                installMs: Math.round(installMs),
                buildMs: Math.round(buildMs),
                startMs: Math.round(running.readyMs),
                firstAnswerMs: Math.round(performance.now() - askedAt),
              });
              expect(problems).toEqual([]);
            } finally {
              await page.close();
              await running.stop();
            }
          }
        } finally {
          await rm(project, { recursive: true, force: true });
        }
      });
    }
  });
}
