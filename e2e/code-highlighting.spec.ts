import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo } from './support/chat.ts';

const HIGHLIGHTER = '/agent-chat.highlight.js';

/** The times the page has requested the highlighter's sibling file so far. */
function recordHighlighterRequests(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === HIGHLIGHTER) requested.push(path);
  });
  return requested;
}

test('under the strict CSP with Trusted Types, code that names a language is highlighted by the pinned sibling file, fetched only then', async ({
  page,
  pageErrors: _errors,
}) => {
  const requested = recordHighlighterRequests(page);
  await openDemo(page, '/strict.html');
  const widget = chat(page, '#strict-chat');
  await widget.send('/echo Plain `inline code`, and a block that names no language:\n\n```\nls -la\n```');
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last().locator('pre code')).toHaveText('ls -la');
  await widget.send('Hello');
  await widget.waitForIdle();
  // Neither answer has a code block that names a language: the file is never fetched.
  expect(requested).toEqual([]);
  await expect(page.locator(`head script[src$="${HIGHLIGHTER}"]`)).toHaveCount(0);

  await widget.send('/code');
  await widget.waitForIdle();
  const answer = widget.assistantMessages.last();
  const [typescript, shell] = [answer.locator('pre.ac-code').nth(0), answer.locator('pre.ac-code').nth(1)];
  await expect(typescript.locator('code .hljs-keyword').first()).toHaveText('export');
  await expect(typescript.locator('code .hljs-comment').first()).toHaveText(
    '/** Sums the prices of the items, in cents. */',
  );
  await expect(shell.locator('code .hljs-comment')).toHaveText('# prints the label');
  // The label and the copy button stay; the text is the source as written.
  await expect(typescript.locator('.ac-code-lang')).toHaveText('ts');
  await expect(typescript.locator(':scope > button.ac-copy')).toHaveCount(1);
  await expect(typescript.locator('code')).toContainText('return items.reduce((sum, item) => sum + item.price, 0);');
  // Colours come from classes in the widget's styles: no inline style anywhere in the answer.
  await expect(answer.locator('[style]')).toHaveCount(0);
  expect(
    await typescript
      .locator('code .hljs-keyword')
      .first()
      .evaluate((node) => getComputedStyle(node).color),
  ).not.toBe(await typescript.locator('code').evaluate((node) => getComputedStyle(node).color));

  expect(requested).toEqual([HIGHLIGHTER]);
  const manifest = (await (await page.request.get('/manifest.json')).json()) as {
    files: Record<string, { integrity: string }>;
  };
  await expect(page.locator(`head script[src$="${HIGHLIGHTER}"]`)).toHaveAttribute(
    'integrity',
    manifest.files['agent-chat.highlight.js']!.integrity,
  );
  // A second answer with code uses the file already loaded.
  await widget.send('/code');
  await widget.waitForIdle();
  await expect(widget.assistantMessages.last().locator('code .hljs-keyword').first()).toHaveText('export');
  expect(requested).toEqual([HIGHLIGHTER]);
  expect(await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations)).toEqual([]);
});

test('hostile code and language names render inert, highlighted or not', async ({ page, pageErrors: _errors }) => {
  await openDemo(page, '/strict.html');
  const widget = chat(page, '#strict-chat');
  const source = `const a = '</span><script>window.pwned = 1</script>'; // <img src=x onerror="window.pwned = 2">`;
  await widget.send(
    [
      `/echo \`\`\`ts`,
      source,
      '```',
      '',
      '```"><img src=x onerror="window.pwned = 3">',
      '</code></pre><img src=x onerror="window.pwned = 4">',
      '```',
    ].join('\n'),
  );
  await widget.waitForIdle();
  const answer = widget.assistantMessages.last();
  const blocks = answer.locator('pre.ac-code');
  await expect(blocks.nth(0).locator('code .hljs-keyword').first()).toHaveText('const');
  await expect(blocks.nth(0).locator('code')).toHaveText(source);
  // The hostile language name is no language: that block stays plain, without a label, as text.
  await expect(blocks.nth(1).locator('.ac-code-lang')).toHaveCount(0);
  await expect(blocks.nth(1).locator('code')).toHaveText('</code></pre><img src=x onerror="window.pwned = 4">');
  await expect(answer.locator('img, script, [onerror], [style]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  expect(await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations)).toEqual([]);
});
