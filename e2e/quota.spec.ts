import { expect, test } from './test';
import { STRICT_URL } from './env';
import { ACCOUNTS, pastWindow, pickRange, pressSearch, screenshot, signIn, upstreamCalls } from './helpers';

const ACCOUNT = ACCOUNTS.quota;

// This dashboard has the upstream's real limits (3 a minute): the spec spends the minute for real
// and waits out the countdown, so it takes about a minute.
test.use({ baseURL: STRICT_URL });
test.setTimeout(180_000);

test('when the minute is spent: the meter and the search count down, then the search runs by itself', async ({
  page,
}) => {
  await signIn(page, ACCOUNT, STRICT_URL);
  await page.goto('/transactions');
  const settled = page.locator('[data-testid="results-table"], [data-testid="empty-state"]');
  const before = await upstreamCalls(ACCOUNT);

  for (let i = 0; i < 3; i++) {
    const window = pastWindow(5 + i, 1, 9);
    await pickRange(page, window.from, window.to);
    await expect(page.getByTestId('search-cost')).toContainText('Uses 1 of');
    // Its answer, not the page's: the table of the search before stays on screen while this one runs.
    const answered = page.waitForResponse(
      (r) => r.url().includes('/api/transactions?') && decodeURIComponent(r.url()).includes(window.from.slice(0, 10)),
    );
    await pressSearch(page);
    await expect(page).toHaveURL(new RegExp(`date-from=${window.from.slice(0, 10)}`));
    expect((await answered).status()).toBe(200);
    await expect(settled).toBeVisible();
  }
  expect(await upstreamCalls(ACCOUNT)).toBe(before + 3);

  // The header says none is left this minute and counts down to the next one…
  await expect(page.locator('[data-window="minute"]')).toContainText('0/3');
  await expect(page.getByTestId('quota-wait')).toContainText(/Next free call in \d:\d\d/);
  // …and so does the form, before a fourth search is made.
  const fourth = pastWindow(9, 1, 9);
  await pickRange(page, fourth.from, fourth.to);
  await expect(page.getByTestId('search-cost')).toContainText('no call left this minute');
  await screenshot(page, '08-quota-exhausted');

  await pressSearch(page);
  const waiting = page.getByTestId('quota-wait-problem');
  await expect(waiting).toContainText(/Waiting for the upstream’s next free call: \d:\d\d/);
  await expect(waiting).toContainText('runs again by itself');
  // Whose calls are used, without a wait in seconds that would stand still beside the countdown.
  await expect(waiting).toContainText(/calls this minute are used\./);
  await expect(waiting).not.toContainText(/the next call can go in/);
  await screenshot(page, '09-quota-countdown');

  // The automatic retry, once the minute has moved on.
  await expect(page.getByTestId('results-table').or(page.getByTestId('empty-state'))).toBeVisible({ timeout: 90_000 });
  await expect(waiting).toHaveCount(0);
  expect(await upstreamCalls(ACCOUNT)).toBe(before + 4);
});
