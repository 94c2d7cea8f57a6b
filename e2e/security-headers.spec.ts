import { test, expect } from './support/fixtures.ts';
import { chat, openDemo } from './support/chat.ts';

const MAIN_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

test('the main demo page runs the demo under its CSP with no violation', async ({ page, pageErrors: _errors }) => {
  // An init script runs before the page's own scripts and is not subject to its CSP.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as { cspViolations?: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const response = await page.goto('/');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toBe(MAIN_CSP);
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-content-type-options']).toBe('nosniff');

  await openDemo(page);
  await expect(page.locator('script[src="/agent-chat.js"]')).toHaveAttribute('integrity', /^sha384-/);
  const widget = chat(page);
  await widget.send('Hello under the demo policy');
  await widget.waitForIdle();
  await expect(widget.reasoning).toHaveCount(1);
  await widget.send('/tool');
  await widget.waitForIdle();
  await expect(widget.toolCards.first()).toHaveAttribute('data-status', 'completed');
  expect(await page.evaluate(() => (window as { cspViolations?: string[] }).cspViolations)).toEqual([]);

  // The policy is enforced: an inline script the page did not ship never runs.
  const inline = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true;';
    document.head.append(script);
    return (window as { injected?: boolean }).injected ?? false;
  });
  expect(inline).toBe(false);
});

test('API answers through the demo server carry nosniff and no-store', async ({ page }) => {
  await page.goto('/');
  const bootstrap = await page.request.get('/api/agent/v1/bootstrap');
  expect(bootstrap.status()).toBe(200);
  expect(bootstrap.headers()['x-content-type-options']).toBe('nosniff');
  expect(bootstrap.headers()['cache-control']).toBe('no-store');
  const missing = await page.request.get('/api/agent/v1/nowhere');
  expect(missing.status()).toBe(404);
  expect(missing.headers()['x-content-type-options']).toBe('nosniff');
  expect(missing.headers()['cache-control']).toBe('no-store');
});
