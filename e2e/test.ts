/**
 * The suite's `test`: Playwright's, with one rule every test keeps without saying so. No page of the
 * test's browser context may throw an uncaught error: a React hydration mismatch (error #418, which
 * makes React draw a part of the page again and drops the focus inside it) or a script failing
 * would otherwise pass unseen whenever the page still looks right.
 */
import { test as base, expect, type Page } from '@playwright/test';

export { expect };

export const test = base.extend<{ noPageErrors: void }>({
  noPageErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) =>
        page.on('pageerror', (err) => errors.push(`${new URL(page.url()).pathname}: ${err.message.split('\n')[0]}`));
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(errors, 'uncaught errors in the pages of this test').toEqual([]);
    },
    { auto: true },
  ],
});
