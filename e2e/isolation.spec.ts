import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chat, openDemo, type DemoWindow } from './support/chat.ts';

const WIDGET_PROBES = [
  '[part~="input"]',
  '[part~="send-button"]',
  '[part~="transcript"]',
  '[part~="user-message"]',
  '[part~="assistant-message"] p',
];
const PROPERTIES = [
  'color',
  'font-family',
  'font-size',
  'line-height',
  'letter-spacing',
  'margin-top',
  'padding-top',
  'background-color',
  'border-top-width',
  'text-transform',
];

/** Computed styles of elements inside the inline widget's shadow root. */
function widgetStyles(page: Page): Promise<Record<string, Record<string, string>>> {
  return page.evaluate(
    ([probes, properties]) => {
      const root = document.querySelector('#inline-chat agent-chat')!.shadowRoot!;
      return Object.fromEntries(
        probes.map((probe) => {
          const element = root.querySelector(probe)!;
          const style = getComputedStyle(element);
          return [
            probe,
            Object.fromEntries(properties.map((property) => [property, style.getPropertyValue(property)])),
          ];
        }),
      );
    },
    [WIDGET_PROBES, PROPERTIES] as const,
  );
}

/** Computed styles of the host page's own elements. */
function pageStyles(page: Page): Promise<Record<string, Record<string, string>>> {
  return page.evaluate((properties) => {
    const probes = ['body', 'h1', 'h2', 'p', 'button', 'pre', 'code', 'a'];
    return Object.fromEntries(
      probes.map((probe) => {
        const style = getComputedStyle(document.querySelector(probe)!);
        return [probe, Object.fromEntries(properties.map((property) => [property, style.getPropertyValue(property)]))];
      }),
    );
  }, PROPERTIES);
}

test('host-page CSS does not reach inside the widget', async ({ page, pageErrors: _errors }) => {
  await openDemo(page);
  const widget = chat(page);
  await widget.send('/echo Styled **only** by the widget.');
  // The answer's paragraph is one of the probes: wait for it, not only for the composer to be free.
  await expect(widget.assistantMessages.last().locator('p')).toHaveText('Styled only by the widget.');
  await widget.waitForIdle();
  const before = await widgetStyles(page);
  // A same-origin stylesheet: the demo page's CSP (style-src 'self') refuses inline styles.
  await page.route('**/demo/hostile-host.css', (route) =>
    route.fulfill({
      contentType: 'text/css',
      body: `
      html { font-size: 31px !important; }
      body { color: rgb(255, 0, 0) !important; font: italic 27px/3 "Comic Sans MS", cursive !important; letter-spacing: 4px !important; text-transform: uppercase !important; }
      p, div, article, section, textarea, button, pre, code { margin: 40px !important; padding: 30px !important; background: rgb(0, 255, 0) !important; border: 9px solid rgb(255, 0, 255) !important; color: rgb(0, 0, 255) !important; }
      .message, .composer, .transcript, [part] { display: none !important; }
    `,
    }),
  );
  await page.addStyleTag({ url: '/demo/hostile-host.css' });
  // The hostile rules really apply to the host page around the widget.
  expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe('rgb(255, 0, 0)');
  expect(await widgetStyles(page)).toEqual(before);
  await expect(widget.input).toBeVisible();
});

test('the widget adds no styles to the host page', async ({ page, pageErrors: _errors }) => {
  await openDemo(page);
  await page.evaluate(() => {
    const demo = (window as DemoWindow).agentChatDemo!;
    demo.inline.destroy();
    demo.launcher?.destroy();
  });
  const before = await pageStyles(page);
  const sheetsBefore = await page.evaluate(() => [
    document.styleSheets.length,
    document.adoptedStyleSheets.length,
    document.querySelectorAll('style, link[rel="stylesheet"]').length,
  ]);
  await page.evaluate(async () => {
    const inline = window.AgentChat!.mount('#inline-chat', { endpoint: '/api/agent', theme: 'dark' });
    const launcher = window.AgentChat!.mount('#launcher', { endpoint: '/api/agent', mode: 'launcher' });
    launcher.launcher?.open();
    await Promise.all([inline.ready, launcher.ready]);
  });
  await chat(page).send('/echo # A heading\n\nA paragraph with `code` and a [link](https://example.com).');
  await chat(page).waitForIdle();
  expect(await pageStyles(page)).toEqual(before);
  expect(
    await page.evaluate(() => [
      document.styleSheets.length,
      document.adoptedStyleSheets.length,
      document.querySelectorAll('style, link[rel="stylesheet"]').length,
    ]),
  ).toEqual(sheetsBefore);
});
