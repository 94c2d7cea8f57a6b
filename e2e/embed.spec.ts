import { test, expect } from './support/fixtures.ts';
import { chat, openDemo } from './support/chat.ts';

test('the script tag with its SRI hash loads the bundle, which exposes mount and version', async ({
  page,
  pageErrors: _errors,
}) => {
  const bundle = page.waitForResponse((response) => response.url().endsWith('/agent-chat.js'));
  await openDemo(page);
  expect((await bundle).status()).toBe(200);
  const script = page.locator('script[src="/agent-chat.js"]');
  await expect(script).toHaveAttribute('integrity', /^sha384-[A-Za-z0-9+/]{64}$/);
  await expect(script).toHaveAttribute('crossorigin', 'anonymous');
  const manifest = (await (await page.request.get('/manifest.json')).json()) as {
    version: string;
    files: Record<string, { integrity: string }>;
  };
  expect(await script.getAttribute('integrity')).toBe(manifest.files['agent-chat.js']?.integrity);
  expect(await page.evaluate(() => [typeof window.AgentChat?.mount, window.AgentChat?.version])).toEqual([
    'function',
    manifest.version,
  ]);
  await expect(chat(page).input).toBeVisible();
});

test('a tampered bundle is refused by the browser and never runs; the page says so and throws nothing', async ({
  page,
  pageErrors: _errors,
}) => {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.route('**/agent-chat.js', async (route) => {
    const response = await route.fetch();
    const body = `${await response.text()}\nwindow.tampered = true;`;
    await route.fulfill({ response, body });
  });
  await page.goto('/');
  await page.waitForLoadState('load');
  expect(
    await page.evaluate(() => [typeof window.AgentChat, (window as { tampered?: boolean }).tampered ?? null]),
  ).toEqual(['undefined', null]);
  expect(
    consoleErrors.some((text) => text.includes("Failed to find a valid digest in the 'integrity' attribute")),
  ).toBe(true);
  await expect(page.locator('agent-chat')).toHaveCount(0);
  await expect(page.locator('#inline-chat')).toHaveText('The chat could not be loaded. Reload the page to try again.');
});

test('the ESM build mounts from a module script', async ({ page, pageErrors: _errors }) => {
  await openDemo(page, '/esm.html');
  const esm = chat(page, '#esm-chat');
  await esm.send('/echo from the ESM build');
  await expect(esm.assistantMessages.last()).toHaveText(/from the ESM build/);
  await esm.waitForIdle();
});
