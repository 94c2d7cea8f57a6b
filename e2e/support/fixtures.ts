import { test as base, expect } from '@playwright/test';
import { E2E_URL_VARIABLE } from './global-setup.ts';

/** Uncaught errors of a page, collected so a test can assert there were none. */
export interface PageErrors {
  readonly list: Error[];
}

/**
 * The e2e `test`: `baseURL` is the demo server the global setup started, and `pageErrors`
 * collects every uncaught page error (asserted empty after each test that uses it).
 */
export const test = base.extend<{ pageErrors: PageErrors }>({
  // Playwright requires an object pattern as a fixture's first parameter, even when it uses none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env[E2E_URL_VARIABLE];
    if (!url) throw new Error(`${E2E_URL_VARIABLE} is not set: run the tests through playwright.config.ts`);
    await use(url);
  },
  pageErrors: async ({ page }, use) => {
    const errors: PageErrors = { list: [] };
    page.on('pageerror', (error) => errors.list.push(error));
    await use(errors);
    expect(errors.list.map((error) => error.message)).toEqual([]);
  },
});

export { expect };
