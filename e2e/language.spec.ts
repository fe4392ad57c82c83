/**
 * The interface in Japanese and English: a Japanese browser gets Japanese (`<html lang>`, the sign-in
 * page, the header), the header's switch changes the language and keeps the view (the same URL,
 * drawn again), and the choice is remembered ahead of what the browser asks for.
 */
import { expect, test } from './test';
import { APP_URL } from './env';
import { ACCOUNTS, screenshot, signIn } from './helpers';

test.describe('in a Japanese browser', () => {
  test.use({ locale: 'ja-JP' });

  test('the sign-in page is in Japanese, and the switch turns it to English and back', async ({ page }) => {
    await page.goto('/signin?callbackUrl=%2Finsights');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('heading', { name: 'SMS配信履歴' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
    await expect(page.getByLabel('APIキー', { exact: true })).toBeVisible();
    await expect(page).toHaveTitle('ログイン · SMS配信履歴');
    await screenshot(page, 'language-signin-ja');

    const language = page.getByRole('radiogroup', { name: '表示言語' });
    await language.getByRole('radio', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'SMS transaction history' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Finsights$/);
    // Remembered by the browser ahead of its Accept-Language: a reload stays English.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(
      page.getByRole('radiogroup', { name: 'Language' }).getByRole('radio', { name: 'English' }),
    ).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('radio', { name: '日本語' }).click();
    await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
  });

  test('a form problem is said in Japanese', async ({ page }) => {
    await page.goto('/signin');
    await page.getByRole('button', { name: 'ログイン' }).click();
    await expect(page.getByText('Report APIのAPIキーを入力してください。')).toBeVisible();
  });

  test('the header is in Japanese, and the switch keeps the view it is on', async ({ page }) => {
    await signIn(page, ACCOUNTS.session, APP_URL);
    await page.goto('/exports?tz=JST');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    const nav = page.getByRole('navigation', { name: 'メイン' });
    await expect(nav.getByRole('link', { name: 'トランザクション' })).toBeVisible();
    await expect(nav.getByRole('link', { name: '保存済み履歴' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'ログアウト', exact: true })).toBeVisible();
    await expect(page.getByTestId('quota-meter')).toHaveAccessibleName('Report APIの残り呼び出し回数');
    await screenshot(page, 'language-header-ja');

    await page.getByRole('radio', { name: 'English' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }),
    ).toBeVisible();
    await expect(page.getByTestId('quota-meter')).toHaveAccessibleName('Upstream calls left');
    await expect(page).toHaveURL(/\/exports\?tz=JST$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await screenshot(page, 'language-header-en');
  });

  test('an unknown page says so in Japanese', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'このページは見つかりませんでした' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'トランザクション一覧' })).toHaveAttribute('href', '/transactions');
  });
});
