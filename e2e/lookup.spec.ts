import { expect, test } from './test';
import {
  ACCOUNTS,
  pastWindow,
  pickRange,
  pressSearch,
  resultRows,
  rowIds,
  screenshot,
  searchUrl,
  signIn,
  upstreamCalls,
} from './helpers';

const ACCOUNT = ACCOUNTS.lookup;

test('look a transaction up by its id; a malformed id is refused before any call', async ({ page, baseURL }) => {
  await signIn(page, ACCOUNT, baseURL!);
  await page.goto(searchUrl(pastWindow(4, 6, 10)));
  await expect(resultRows(page).first()).toBeVisible();
  const [id] = await rowIds(page);

  const detailRequests: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/transactions/')) detailRequests.push(r.url());
  });
  const lookup = page.getByRole('search', { name: 'Look up a transaction' }).getByRole('textbox');
  await lookup.fill('not-a-transaction');
  await lookup.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'only the characters 0-9 and a-f' })).toBeVisible();
  await lookup.fill(id!.slice(0, 31));
  await expect(page.getByRole('alert').filter({ hasText: 'this one has 31' })).toBeVisible();
  await screenshot(page, '05-lookup-invalid');
  expect(detailRequests).toEqual([]);

  const calls = await upstreamCalls(ACCOUNT);
  await lookup.fill(id!);
  await lookup.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/transactions/${id}\\?tz=UTC`));
  await expect(page.getByTestId('page-trx-id')).toHaveText(id!);
  await expect(page.getByRole('heading', { name: 'Delivery' })).toBeVisible();
  // Found in what the search kept, with no call: its cached pages, or the local history once the
  // search's complete result has been copied there (the history writer does that in the background,
  // usually within a second).
  await expect(page.getByTestId('result-source')).toContainText(/From cache|From local history/);
  expect(await upstreamCalls(ACCOUNT)).toBe(calls);
  await screenshot(page, '06-transaction-page');

  await page.goto('/transactions/xyz');
  await expect(page.getByTestId('invalid-trx-id')).toContainText('only the characters 0-9 and a-f');
});

test('a range over 31 days is refused in the picker, and a bad filter by the form', async ({ page, baseURL }) => {
  await signIn(page, ACCOUNT, baseURL!);
  let searches = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/transactions') searches += 1;
  });
  await page.goto('/transactions');
  await pickRange(page, '2026-01-01 00:00:00', '2026-02-05 00:00:00');
  await expect(page.getByTestId('range-message')).toContainText('at most 31 days');
  await expect(page.getByTestId('range-message')).toContainText('This range spans 35 d');
  await expect(page.getByTestId('search-cost')).toContainText('Correct the highlighted fields');
  await pressSearch(page);
  await expect(page.locator('input[name="date-to"]')).toBeFocused();
  await screenshot(page, '07-invalid-range');

  await pickRange(page, '2026-01-01 00:00:00', '2026-01-02 00:00:00');
  await page.fill('#filter-da', '12ab');
  await pressSearch(page);
  await expect(page.locator('#filter-da-problem')).toContainText('phone number of 6 to 15 digits');
  await expect(page.locator('#filter-da')).toBeFocused();
  expect(searches).toBe(0);
  expect(new URL(page.url()).searchParams.has('date-from')).toBe(false);

  // A pasted link the server would refuse is explained, not sent.
  await page.goto('/transactions?date-from=2026-01-01+00:00:00&date-to=2026-03-01+00:00:00&tz=UTC');
  await expect(page.getByTestId('invalid-link')).toContainText('at most 31 days');
  expect(searches).toBe(0);
});
