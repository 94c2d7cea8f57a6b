import { expect, type Page } from '@playwright/test';

/** The `part` (or tag) of the element that has focus, looking through shadow roots. */
export function focusedPart(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.getAttribute('part') ?? active?.localName ?? '';
  });
}

/** Presses `key` until the focused element's part is `part` (at most `limit` presses). */
export async function tabTo(page: Page, part: string, key: 'Tab' | 'Shift+Tab', limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if ((await focusedPart(page)) === part) return;
    await page.keyboard.press(key);
  }
  expect(await focusedPart(page)).toBe(part);
}
