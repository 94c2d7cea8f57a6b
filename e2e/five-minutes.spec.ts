import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect } from './support/fixtures.ts';
import { chat, expectSlowAnswerSurvivesReload } from './support/chat.ts';

/**
 * The recipe copied into test-results/ without its package.json (which names the example, not
 * agent-chat, so `agent-chat/server` would not resolve to this checkout's build), with the
 * integrity copied from the manifest into its page, as the reader is told to do. Resolves with
 * the copy's folder.
 */
async function prepareRecipe(name: string): Promise<string> {
  const recipeDir = join(process.cwd(), 'test-results', `five-minutes-${name}`);
  await cp('examples/five-minutes', recipeDir, {
    recursive: true,
    filter: (source) => !['node_modules', 'dist', 'package.json', 'package-lock.json'].includes(basename(source)),
  });
  const manifest = JSON.parse(await readFile('dist/manifest.json', 'utf8')) as {
    files: Record<string, { integrity: string }>;
  };
  const page = join(recipeDir, 'public', 'index.html');
  const html = await readFile(page, 'utf8');
  expect(html).toContain('integrity="sha384-COPY-FROM-MANIFEST"');
  await writeFile(page, html.replace('sha384-COPY-FROM-MANIFEST', manifest.files['agent-chat.js']?.integrity ?? ''));
  return recipeDir;
}

for (const recipe of ['server.mjs', 'server-express.mjs']) {
  test(`the five-minute recipe (${recipe}) serves a page whose widget answers, runs its own tool and survives a reload`, async ({
    page,
    pageErrors: _errors,
  }) => {
    const recipeDir = await prepareRecipe(recipe.replace('.mjs', ''));
    const publicDir = join(recipeDir, 'public');
    const module = (await import(pathToFileURL(join(recipeDir, recipe)).href)) as {
      startServer(options: { port: number; publicDir: string; env: Record<string, string> }): Promise<Server>;
    };
    // The offline scripted model, whatever model this machine's environment names.
    const server = await module.startServer({ port: 0, publicDir, env: {} });
    try {
      const sessions: string[] = [];
      page.on('console', (message) => {
        if (message.text().startsWith('conversation ')) sessions.push(message.text());
      });
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const widget = chat(page, '#assistant');
      await expect(widget.root.locator('[part="header"] h2')).toHaveText('My product assistant');
      await widget.root.locator('[part="suggestion"]', { hasText: '/tool' }).click();
      await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
      await widget.waitForIdle();
      // The recipe's own tool (weather-tool.mjs, quoted in docs/reference.md) asks first.
      await widget.send('/call get_weather {"city":"Paris"}');
      const approval = widget.approvalCards.last();
      await expect(approval).toHaveAttribute('data-state', 'open');
      await expect(approval).toContainText('Get the weather');
      await expect(approval.locator('.approval-arg dt')).toHaveText(['city']);
      await expect(approval.locator('.approval-arg dd')).toHaveText(['Paris']);
      await approval.locator('[part~="allow-button"]').click();
      await widget.waitForIdle();
      await expect(widget.approvalCards).toHaveCount(0);
      await expect(widget.toolCards.last().locator('summary')).toHaveText(/Get the weather\s*Completed/);
      await expect(widget.assistantMessages.last()).toContainText('light rain');
      expect(sessions).toEqual([expect.stringMatching(/^conversation ses_/)]);
      // Reload-proof by default (the recipe sets no persist): a reload mid-answer follows the same run.
      await expectSlowAnswerSurvivesReload(page, widget);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
}
