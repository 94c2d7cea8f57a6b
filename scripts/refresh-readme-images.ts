import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { galleryWidget, openGallery, screenshotWidget, type GalleryTheme } from '../e2e/support/gallery.ts';
import startDemoServer, { E2E_URL_VARIABLE } from '../e2e/support/global-setup.ts';
import { chromiumLaunchOptions } from './chromium.ts';

// `npm run images:refresh`: the pictures of README.md and docs/widgets.md, taken from the gallery (/gallery.html,
// demo/gallery-page.js) on the demo server the e2e starts (built when stale, on a free port; or
// the one `AGENT_CHAT_E2E_URL` names), in the system Chromium the e2e uses. Commit what changed.
const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each picture of README.md and docs/widgets.md, and the gallery widget (desktop width) it is taken from. */
const PICTURES: ReadonlyArray<{ file: string; state: string; theme: GalleryTheme }> = [
  { file: 'docs/images/approval-light.png', state: 'approval', theme: 'light' },
  { file: 'docs/images/conversation-dark.png', state: 'tools', theme: 'dark' },
  { file: 'docs/images/widget-order-light.png', state: 'widget', theme: 'light' },
  { file: 'docs/images/widget-catalogue-dark.png', state: 'widget-catalogue', theme: 'dark' },
];

const stopServer = await startDemoServer();
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const context = await browser.newContext({
    baseURL: process.env[E2E_URL_VARIABLE],
    viewport: { width: 1680, height: 900 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openGallery(page);
  for (const { file, state, theme } of PICTURES) {
    await screenshotWidget(galleryWidget(page, state, theme, 'desktop'), join(rootDir, file));
    console.log(`wrote ${file} (gallery: ${state}, ${theme}, desktop)`);
  }
  const violations = await page.evaluate(() => (window as { cspViolations?: unknown[] }).cspViolations ?? []);
  if (errors.length > 0 || violations.length > 0) {
    throw new Error(`the gallery reported ${errors.length} page errors and ${violations.length} CSP violations`);
  }
} finally {
  await browser.close();
  await stopServer();
}
