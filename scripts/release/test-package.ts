/**
 * `npm run test:package <release dir>`: checks a release folder (from `release:pack`) the way
 * products use it, from the artifacts alone. The tarball is installed offline into an empty
 * temporary project (`consumer-project.ts`), whose fixtures (`consumer/`) then import, compile,
 * serve and render the installed package in plain Node, TypeScript and Chromium. Runs with
 * node:test; exits non-zero when a check fails. See docs/release.md.
 */
import { expect } from '@playwright/test';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, cp, lstat, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join, resolve, sep } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { chromiumLaunchOptions } from '../chromium.ts';
import {
  buildReactPage,
  installConsumerProject,
  startConsumerServer,
  type ConsumerServer,
} from './consumer-project.ts';
import { PART_TABLE, partFileName } from '../../src/parts/part-table.ts';
import { listBareImports } from './list-bare-imports.ts';
import { RELEASE_SCRIPT_FILES } from './release-files.ts';
import { describeHosts } from './test-hosts.ts';
import { findManifestMismatches, type ReleaseManifest } from './release-manifest.ts';
import { FOLLOW_UP_ANSWER, FOLLOW_UP_FAILURES, FOLLOW_UP_QUESTION, startWeatherProvider } from './weather-provider.ts';

const execFileAsync = promisify(execFile);
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IIFE_FILE = 'agent-chat.js';

const releaseArgument = process.argv[2];
if (releaseArgument === undefined || releaseArgument.startsWith('-')) {
  console.error('usage: npm run test:package <release dir>   (e.g. release/0.1.0, written by npm run release:pack)');
  process.exit(2);
}
const releaseDir = resolve(releaseArgument);
const manifestPath = join(releaseDir, 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(
    `test:package: ${releaseArgument} has no manifest.json; pass a folder written by npm run release:pack.`,
  );
  process.exit(2);
}
const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as ReleaseManifest;
const tarballName = Object.keys(manifest.files).find((name) => name.endsWith('.tgz'));
if (tarballName === undefined) throw new Error(`${releaseArgument}/manifest.json lists no .tgz tarball`);
const tarballPath = join(releaseDir, tarballName);

/** Runs a Node script of the consumer project and parses the one JSON line it prints. */
async function runConsumerScript(project: string, script: string): Promise<unknown> {
  const { stdout } = await execFileAsync(process.execPath, [script], { cwd: project });
  return JSON.parse(stdout);
}

/** Runs the repository's TypeScript compiler on one of the consumer's tsconfig files; resolves with its report. */
async function compile(project: string, tsconfig: string): Promise<{ tsconfig: string; output: string }> {
  const tsc = join(rootDir, 'node_modules/typescript/bin/tsc');
  try {
    await execFileAsync(process.execPath, [tsc, '-p', tsconfig, '--pretty', 'false'], { cwd: project });
    return { tsconfig, output: '' };
  } catch (error) {
    return { tsconfig, output: error instanceof Error && 'stdout' in error ? String(error.stdout) : String(error) };
  }
}

describe(`release ${manifest.name} ${manifest.version} (${releaseArgument})`, () => {
  let project = '';
  let server: ConsumerServer | undefined;
  let browser: Browser | undefined;

  before(
    async () => {
      project = await installConsumerProject({
        rootDir,
        fixturesDir: join(rootDir, 'scripts/release/consumer'),
        tarballPath,
      });
      const integrity = manifest.files[IIFE_FILE]?.integrity ?? '';
      // The script tag and the sibling files it loads beside itself on first use (the turn actions on the first answer).
      for (const name of Object.keys(manifest.files).filter((file) => file.endsWith('.js'))) {
        await copyFile(join(releaseDir, name), join(project, 'public', name));
      }
      const page = await readFile(join(project, 'public/index.html'), 'utf8');
      await writeFile(join(project, 'public/index.html'), page.replace('%AGENT_CHAT_INTEGRITY%', integrity));
      server = await startConsumerServer(project);
      browser = await chromium.launch(chromiumLaunchOptions());
    },
    { timeout: 300_000 },
  );

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (project !== '') await rm(project, { recursive: true, force: true });
  });

  /** A new page of the consumer's server whose uncaught errors and CSP violations fail the test. */
  async function openPage(path: string): Promise<{ page: Page; problems: string[] }> {
    if (browser === undefined || server === undefined) throw new Error('the consumer project did not start');
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    await page.goto(`${server.url}${path}`);
    return { page, problems };
  }

  test('the folder holds exactly the files its manifest lists, with those digests', async () => {
    const files = new Map<string, Uint8Array>();
    for (const name of await readdir(releaseDir)) {
      if (name !== 'manifest.json') files.set(name, await readFile(join(releaseDir, name)));
    }
    assert.deepEqual(findManifestMismatches(manifest, files), []);
    assert.deepEqual(Object.keys(manifest.files).sort(), ['LICENSE', ...RELEASE_SCRIPT_FILES, tarballName].sort());
    assert.deepEqual(await readFile(join(releaseDir, 'LICENSE')), await readFile(join(rootDir, 'LICENSE')));
  });

  test('installs from the tarball alone: a real folder in the empty project, without the sources', async () => {
    const installed = join(project, 'node_modules', manifest.name);
    assert.equal((await lstat(installed)).isSymbolicLink(), false);
    assert.ok((await realpath(installed)).startsWith(`${await realpath(project)}${sep}`));
    const packageJson = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { version: string };
    assert.equal(packageJson.version, manifest.version);
    assert.deepEqual((await readdir(installed)).sort(), ['LICENSE', 'README.md', 'dist', 'package.json']);
  });

  test('ships the release folder’s agent-chat.js, which opens with its MIT licence banner', async () => {
    const shipped = await readFile(join(project, 'node_modules', manifest.name, 'dist', IIFE_FILE));
    assert.deepEqual(shipped, await readFile(join(releaseDir, IIFE_FILE)));
    const banner = shipped.toString('utf8').split('\n', 1)[0] ?? '';
    assert.match(
      banner,
      new RegExp(`^/\\*! ${manifest.name} ${manifest.version} \\| MIT License \\| Copyright \\(c\\) `),
    );
    assert.ok(banner.endsWith(' */'), banner);
  });

  test('imports agent-chat/core and agent-chat/server in plain Node, without a DOM, and holds a conversation', async () => {
    assert.deepEqual(await runConsumerScript(project, 'node-conversation.mjs'), {
      hasDom: [],
      protocolVersion: manifest.protocol.version,
      bootstrapProtocol: manifest.protocol.version,
      messages: [
        ['user', '/echo hello from plain Node'],
        ['assistant', 'hello from plain Node'],
      ],
    });
  });

  test('resolves what the exports map names, by import and by require alike, and refuses deep imports into dist/ and src/', async () => {
    const result = (await runConsumerScript(project, 'node-resolution.mjs')) as { packageDir: string };
    assert.ok(result.packageDir.startsWith(await realpath(project)), result.packageDir);
    const resolved = {
      'agent-chat': 'dist/esm/index.js',
      'agent-chat/define': 'dist/esm/define.js',
      'agent-chat/core': 'dist/esm/core.js',
      'agent-chat/server': 'dist/esm/server.js',
      'agent-chat/react': 'dist/esm/react.js',
      'agent-chat/locales/zh-cn': 'dist/esm/locales/zh-cn.js',
      'agent-chat/tools': 'dist/esm/tools.js',
      'agent-chat/highlight': 'dist/esm/highlight.js',
      'agent-chat/agent-chat.js': 'dist/agent-chat.js',
      'agent-chat/agent-chat.zh-CN.js': 'dist/agent-chat.zh-CN.js',
      // The optional parts' files (src/parts/part-table.ts).
      ...Object.fromEntries(
        PART_TABLE.map(({ name }) => [`agent-chat/${partFileName(name)}`, `dist/${partFileName(name)}`]),
      ),
      'agent-chat/agent-chat-tools.js': 'dist/agent-chat-tools.js',
      'agent-chat/manifest.json': 'dist/manifest.json',
      'agent-chat/custom-elements.json': 'dist/custom-elements.json',
      'agent-chat/package.json': 'package.json',
    };
    assert.deepEqual(result, {
      packageDir: result.packageDir,
      resolved,
      // Each entry has a `default` beside `import`, so CommonJS resolution (webpack's, Next's
      // check of a server external) finds the same files.
      resolvedByRequire: resolved,
      refused: {
        'agent-chat/dist/esm/core.js': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
        'agent-chat/dist/esm/index.js': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
        'agent-chat/dist/agent-chat.js': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
        'agent-chat/dist/types/index.d.ts': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
        'agent-chat/src/index.ts': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
        'agent-chat/src/core/index.ts': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      },
    });
  });

  test(
    'compiles strict TypeScript consumers: core and server without the DOM lib, the widget and React with it',
    { timeout: 180_000 },
    async () => {
      const reports = [];
      // Two at a time: the machine has two cores.
      reports.push(
        ...(await Promise.all([compile(project, 'tsconfig.node.json'), compile(project, 'tsconfig.worker.json')])),
      );
      reports.push(await compile(project, 'tsconfig.dom.json'));
      assert.deepEqual(reports, [
        { tsconfig: 'tsconfig.node.json', output: '' },
        { tsconfig: 'tsconfig.worker.json', output: '' },
        { tsconfig: 'tsconfig.dom.json', output: '' },
      ]);
    },
  );

  test('passes publint (strict, suggestions included)', async () => {
    const tarball = await readFile(tarballPath);
    const { messages, pkg } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      level: 'suggestion',
      strict: true,
    });
    assert.deepEqual(
      messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`),
      [],
    );
  });

  test(
    'passes @arethetypeswrong/cli for ESM consumers (node16 and bundler resolution)',
    { timeout: 120_000 },
    async () => {
      const cli = join(rootDir, 'node_modules/@arethetypeswrong/cli/dist/index.js');
      const args = [cli, tarballPath, '--profile', 'esm-only', '--format', 'table-flipped', '--no-color', '--no-emoji'];
      const result = await execFileAsync(process.execPath, args).then(
        () => 'no problems',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      assert.equal(result, 'no problems');
    },
  );

  test('keeps React out of the IIFE, the element and the core (only agent-chat/react imports it), and AG-UI out of all but the server', async () => {
    const esm = join(project, 'node_modules', manifest.name, 'dist/esm');
    // What each entry reaches besides Lit (lit, lit/…) and Node's built-ins (node:…).
    const packagesOf = async (entry: string): Promise<string[]> =>
      (await listBareImports(join(esm, entry))).filter((name) => !/^(lit($|\/)|node:)/.test(name));
    assert.deepEqual(
      {
        core: await packagesOf('core.js'),
        server: await packagesOf('server.js'),
        index: await packagesOf('index.js'),
        define: await packagesOf('define.js'),
        react: await packagesOf('react.js'),
        highlight: await packagesOf('highlight.js'),
      },
      {
        core: [],
        // AG-UI is spoken by the server only (docs/ag-ui.md): no other entry reaches it. The MCP SDK
        // is an optional peer the server reaches only by import() once a product lists mcpServers;
        // the OpenTelemetry API is a dependency of its tracing (docs/operations.md); the AI SDK's
        // OpenAI-compatible provider is a dependency createOpenAiCompatibleModel loads by import() on its first call.
        server: [
          '@ag-ui/core',
          '@ag-ui/core/schemas',
          '@ag-ui/encoder',
          '@ai-sdk/openai-compatible',
          '@modelcontextprotocol/sdk/client/index.js',
          '@modelcontextprotocol/sdk/client/stdio.js',
          '@modelcontextprotocol/sdk/client/streamableHttp.js',
          '@modelcontextprotocol/sdk/types.js',
          '@opentelemetry/api',
          'ajv',
          'ajv-formats',
        ],
        index: ['dompurify', 'marked'],
        define: ['dompurify', 'marked'],
        react: ['@lit/react', 'dompurify', 'marked', 'react'],
        // highlight.js only where a host asks for highlighting (docs/embedding.md, "Code highlighting").
        highlight: [
          'highlight.js/lib/core',
          ...['bash', 'c', 'cpp', 'csharp', 'diff', 'go', 'java', 'javascript', 'json', 'markdown', 'python']
            .concat(['rust', 'shell', 'sql', 'typescript', 'xml', 'yaml'])
            .map((language) => `highlight.js/lib/languages/${language}`),
        ],
      },
    );
    const iife = await readFile(join(releaseDir, IIFE_FILE), 'utf8');
    assert.deepEqual(iife.match(/Symbol\.for\(["'`]react\.[a-z_.]+["'`]\)/g), null);
  });

  test('names its Custom Elements Manifest in package.json, describing <agent-chat> in shipped modules', async () => {
    const installed = join(project, 'node_modules', manifest.name);
    const packageJson = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
      customElements: string;
    };
    const elements = JSON.parse(await readFile(join(installed, packageJson.customElements), 'utf8')) as {
      modules: Array<{ path: string; declarations: Array<{ tagName?: string; attributes?: Array<{ name: string }> }> }>;
    };
    assert.deepEqual(
      elements.modules.map((module) => [module.path, existsSync(join(installed, module.path))]),
      [
        ['dist/esm/index.js', true],
        ['dist/esm/define.js', true],
      ],
    );
    const element = elements.modules.flatMap((module) => module.declarations).find((item) => item.tagName);
    assert.equal(element?.tagName, 'agent-chat');
    assert.deepEqual(
      element?.attributes?.map((attribute) => attribute.name),
      ['locale', 'theme'],
    );
  });

  test('loads agent-chat.js by <script integrity> in Chromium and chats with a server from the installed package', async () => {
    const { page, problems } = await openPage('/');
    await page.waitForFunction(() => 'mounted' in window);
    assert.equal(await page.evaluate(() => window.AgentChat?.version), manifest.version);
    const script = page.locator('script[src="/agent-chat.js"]');
    assert.equal(await script.getAttribute('integrity'), manifest.files[IIFE_FILE]?.integrity);
    const widget = page.locator('#assistant agent-chat');
    await expect(widget).toHaveAttribute('theme', 'light');
    await widget.locator('[part~="input"]').fill('/echo served from the release folder');
    await widget.locator('[part~="input"]').press('Enter');
    await expect(widget.locator('[part~="assistant-message"]')).toContainText('served from the release folder');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(
    'renders agent-chat/react in a React 19 page built by Vite, its typed events reaching React',
    { timeout: 180_000 },
    async () => {
      await buildReactPage(project);
      const { page, problems } = await openPage('/react/');
      const main = page.locator('main');
      await expect(main).toHaveAttribute('data-react-version', /^19\./);
      const widget = main.locator('agent-chat');
      await expect(widget).toHaveAttribute('theme', 'dark');
      await widget.locator('[part~="input"]').fill('/echo rendered by React');
      await widget.locator('[part~="input"]').press('Enter');
      await expect(widget.locator('[part~="assistant-message"]')).toContainText('rendered by React');
      await expect(page.locator('#sent')).toHaveText('/echo rendered by React');
      assert.deepEqual(problems, []);
      await page.close();
    },
  );

  test(
    'runs the five-minute recipe from the tarball: its own tool asks first, a fake provider calls it, a reload mid-answer resumes, Retry answers a failed turn once',
    { timeout: 120_000 },
    async () => {
      if (browser === undefined) throw new Error('the browser did not start');
      // The recipe as docs/reference.md gives it (examples/five-minutes), in the project that installed
      // the tarball: without what an install in the example's folder left there, so it uses the tarball's.
      const recipeDir = join(project, 'five-minutes');
      await cp(join(rootDir, 'examples/five-minutes'), recipeDir, {
        recursive: true,
        filter: (source) => !['node_modules', 'dist', 'package-lock.json'].includes(basename(source)),
      });
      const pagePath = join(recipeDir, 'public/index.html');
      const html = await readFile(pagePath, 'utf8');
      assert.ok(html.includes('integrity="sha384-COPY-FROM-MANIFEST"'));
      await writeFile(pagePath, html.replace('sha384-COPY-FROM-MANIFEST', manifest.files[IIFE_FILE]?.integrity ?? ''));
      const provider = await startWeatherProvider();
      const recipe = (await import(pathToFileURL(join(recipeDir, 'server-express.mjs')).href)) as {
        startServer(options: { port: number; env: Record<string, string> }): Promise<Server>;
      };
      const env = { OPENAI_BASE_URL: provider.baseUrl, OPENAI_API_KEY: 'sk-newcomer', AGENT_MODEL: 'fake-weather' };
      const recipeServer = await recipe.startServer({ port: 0, env });
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      try {
        await page.goto(`http://127.0.0.1:${(recipeServer.address() as AddressInfo).port}/`);
        const widget = page.locator('#assistant agent-chat');
        await widget.locator('[part~="input"]').fill("What's the weather in Paris?");
        await widget.locator('[part~="input"]').press('Enter');
        const approval = widget.locator('[part~="approval-card"]');
        await expect(approval).toHaveAttribute('data-state', 'open');
        await expect(approval.locator('.approval-arg dt')).toHaveText(['city']);
        await expect(approval.locator('.approval-arg dd')).toHaveText(['Paris']);
        await approval.locator('[part~="allow-button"]').click();
        const answer = widget.locator('[part~="assistant-message"]').last();
        await expect(answer).toContainText('light rain');
        await expect(answer).toHaveAttribute('data-status', 'streaming');
        await page.reload();
        await expect(widget.locator('[part~="user-message"]')).toHaveCount(1);
        await expect(answer).toContainText('Done.', { timeout: 20_000 });
        await expect(answer).toHaveAttribute('data-status', 'complete');
        await expect(widget.locator('[part~="tool-card"] summary')).toHaveText(/Get the weather\s*Completed/);
        // The model got the question once, then the tool's result.
        assert.equal(provider.requests.length, 2);
        const followUp = provider.requests[1] ?? [];
        assert.deepEqual(
          followUp.filter((message) => message.role === 'user').map((message) => message.content),
          ["What's the weather in Paris?"],
        );
        assert.match(String(followUp.find((message) => message.role === 'tool')?.content), /light rain/);
        // The next turn fails past the server's own retries; Retry answers it once, as the same turn.
        await widget.locator('[part~="input"]').fill(FOLLOW_UP_QUESTION);
        await widget.locator('[part~="input"]').press('Enter');
        await widget.locator('[part~="retry-button"]').click({ timeout: 30_000 });
        await expect(widget.locator('[part~="assistant-message"]').last()).toContainText(FOLLOW_UP_ANSWER);
        await page.reload();
        await expect(widget.locator('[part~="assistant-message"]').last()).toContainText(FOLLOW_UP_ANSWER);
        await expect(widget.locator('[part~="user-message"]')).toHaveCount(2);
        assert.equal(provider.requests.length, 2 + FOLLOW_UP_FAILURES + 1);
        const retried = provider.requests.at(-1) ?? [];
        assert.deepEqual(
          retried.filter((message) => message.role === 'user').map((message) => message.content),
          ["What's the weather in Paris?", FOLLOW_UP_QUESTION],
        );
        assert.ok(retried.every((message, at) => message.role !== 'user' || retried[at + 1]?.role !== 'user'));
        assert.deepEqual(problems, []);
      } finally {
        await page.close();
        recipeServer.closeAllConnections();
        await new Promise<void>((resolve) => recipeServer.close(() => resolve()));
        await provider.close();
      }
    },
  );

  describeHosts({
    rootDir,
    tarballPath,
    browser: () => {
      if (browser === undefined) throw new Error('the browser did not start');
      return browser;
    },
  });
});
