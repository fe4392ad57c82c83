import { expect, test } from '@playwright/test';
import { ACCOUNTS, screenshot } from './helpers';

const ACCOUNT = ACCOUNTS.session;

test('sign in, come back to the page asked for, sign out', async ({ page }) => {
  await page.goto('/transactions?tz=JST');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await page.fill('#apiKey', ACCOUNT);
  await page.fill('#apiSecret', `${ACCOUNT}-secret`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/transactions\?tz=JST/);
  await expect(page.getByRole('banner')).toContainText(ACCOUNT);
  await expect(page.getByTestId('quota-meter')).toBeVisible();
  await expect(page.locator('[data-zone="JST"]')).toHaveAttribute('aria-checked', 'true');
  await screenshot(page, '00-signed-in');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto('/transactions');
  await expect(page).toHaveURL(/\/signin/);
});
