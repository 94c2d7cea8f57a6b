import type { Locator, Page } from '@playwright/test';

/** Where the gallery's screenshots go: a test artifact (test-results/ is not committed). */
export const GALLERY_SHOTS = 'test-results/screenshots/gallery';

export type GalleryTheme = 'light' | 'dark';
export type GalleryWidth = 'desktop' | 'phone';

/**
 * Opens the gallery (`/gallery.html`, demo/gallery-page.js) and waits until every widget has
 * rendered; resolves with the page's response headers. `npm run images:refresh` uses it too.
 */
export async function openGallery(page: Page): Promise<{ headers: Record<string, string> }> {
  const response = await page.goto('/gallery.html');
  if (!response?.ok()) throw new Error(`/gallery.html answered ${response?.status()}`);
  await page.waitForFunction(() => 'agentChatGallery' in window);
  await page.evaluate(
    () => (window as unknown as { agentChatGallery: { ready: Promise<void> } }).agentChatGallery.ready,
  );
  return { headers: response.headers() };
}

/** The gallery's widget of `state` in `theme` at `width`. */
export function galleryWidget(page: Page, state: string, theme: GalleryTheme, width: GalleryWidth): Locator {
  return page.locator(`[data-state="${state}"] [data-theme="${theme}"][data-width="${width}"] agent-chat`);
}

/**
 * Saves a screenshot of one gallery widget at `path`, once it is in view and has painted: rows
 * off screen skip layout and paint (`content-visibility: auto`) until they scroll into view.
 */
export async function screenshotWidget(widget: Locator, path: string): Promise<void> {
  await widget.scrollIntoViewIfNeeded();
  await widget.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined)))),
  );
  await widget.screenshot({ path, animations: 'disabled' });
}
