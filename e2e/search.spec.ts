import { expect, test } from './test';
import {
  ACCOUNTS,
  countSearchRequests,
  pastWindow,
  pickRange,
  pressSearch,
  resultRows,
  rowIds,
  screenshot,
  signIn,
  upstreamCalls,
} from './helpers';

const ACCOUNT = ACCOUNTS.search;

/** `2026-11-18 06:12:09` read as UTC, shown 9 hours later. */
function plusNineHours(wallClock: string): string {
  const at = new Date(`${wallClock.replace(' ', 'T')}Z`).getTime() + 9 * 3600_000;
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

test('search with a range and two filters, page through the links, toggle the zone for free', async ({
  page,
  baseURL,
}) => {
  await signIn(page, ACCOUNT, baseURL!);
  const searches = countSearchRequests(page);

  // No range in the URL: the form with a default range, and nothing spent.
  await page.goto('/transactions');
  await expect(page.getByTestId('idle-state')).toBeVisible();
  await expect(page.getByTestId('search-cost')).toContainText(/Uses 1 of [\d,]+ calls left|From cache/);
  await expect(page.locator('input[name="date-from"]')).not.toHaveValue('');
  expect(searches.count).toBe(0);
  await screenshot(page, '01-idle-form');

  const window = pastWindow(2, 12, 6);
  await pickRange(page, window.from, window.to);
  await page.selectOption('#filter-status', 'DELIVRD');
  await page.fill('#filter-network', '44010');
  await expect(page.getByTestId('search-cost')).toContainText('Uses 1 of');
  const callsBefore = await upstreamCalls(ACCOUNT);
  await pressSearch(page);
  await expect(resultRows(page).first()).toBeVisible();
  expect(searches.count).toBe(1);
  expect(await upstreamCalls(ACCOUNT)).toBe(callsBefore + 1);
  await expect(page.getByTestId('result-source')).toContainText('From the upstream');
  await expect(page).toHaveURL(
    /date-from=.*&date-to=.*&status=DELIVRD&network=44010&tz=UTC&sort-order=desc&page-size=25&page=1/,
  );
  for (const status of await page.locator('tbody td[data-kind="status"]').allInnerTexts())
    expect(status).toContain('DELIVRD');
  await screenshot(page, '02-results');

  // Forward and back through the answer's links.
  const page1 = await rowIds(page);
  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-position')).toContainText('Page 2 of');
  await expect(page).toHaveURL(/page=2/);
  const page2 = await rowIds(page);
  expect(page2).not.toEqual(page1);
  await page.getByTestId('page-last').click();
  await expect(page.getByTestId('page-next')).toHaveAttribute('aria-disabled', 'true');
  // The link used is plain text now: focus goes to where the page is said, not to the page's top.
  await expect(page.getByTestId('page-position')).toBeFocused();
  await page.getByTestId('page-first').click();
  await expect(page.getByTestId('page-position')).toContainText('Page 1 of');
  await expect(page.getByTestId('page-position')).toBeFocused();
  expect(await rowIds(page)).toEqual(page1);

  // The browser's history and a reload give the same views.
  await page.goBack();
  await expect(page.getByTestId('page-next')).toHaveAttribute('aria-disabled', 'true');
  await page.goBack();
  await expect(page.getByTestId('page-position')).toContainText('Page 2 of');
  await expect.poll(() => rowIds(page)).toEqual(page2);
  await page.reload();
  await expect(resultRows(page).first()).toBeVisible();
  expect(await rowIds(page)).toEqual(page2);
  await expect(page.locator('#filter-status')).toHaveValue('DELIVRD');
  await expect(page.locator('#filter-network')).toHaveValue('44010');

  // UTC → JST: every time moves by 9 hours, the range keeps its instants, and no upstream call is made.
  const utcFirst = (await page.locator('tbody tr').first().locator('td').first().innerText()).trim();
  const callsBeforeToggle = await upstreamCalls(ACCOUNT);
  await page.locator('[data-zone="JST"]').click();
  await expect(page).toHaveURL(/tz=JST/);
  await expect(page.locator('th[data-column="date_received"]')).toContainText('Received (JST)');
  await expect(page.locator('tbody tr').first().locator('td').first()).toHaveText(plusNineHours(utcFirst));
  expect(new URL(page.url()).searchParams.get('date-from')).toBe(plusNineHours(window.from));
  // (The input drops ":00" seconds from its value.)
  await expect(page.locator('input[name="date-from"]')).toHaveValue(
    plusNineHours(window.from).replace(' ', 'T').replace(/:00$/, ''),
  );
  // Free either way: from the cached pages, or from the local history once the search's complete
  // result has been copied there in the background.
  await expect(page.getByTestId('result-source')).toContainText(/From cache|From local history/);
  expect(await upstreamCalls(ACCOUNT)).toBe(callsBeforeToggle);
  await screenshot(page, '03-jst');

  // A sort on another column is said to apply to the rows shown only.
  await page.locator('th[data-column="price"] button').click();
  await expect(page.getByTestId('client-sort-note')).toContainText('of this page only');
  await expect(page.locator('th[data-column="date_received"]')).toHaveAttribute('aria-sort', 'none');
  await page.getByRole('button', { name: 'Back to received-time order' }).click();
  await expect(page.getByTestId('client-sort-note')).toHaveCount(0);
  // The Received header does the same while the page is sorted on its own: no new search.
  await page.locator('th[data-column="price"] button').click();
  await expect(page.getByTestId('client-sort-note')).toBeVisible();
  const urlBefore = page.url();
  await page.getByTestId('upstream-sort').click();
  await expect(page.getByTestId('client-sort-note')).toHaveCount(0);
  expect(page.url()).toBe(urlBefore);
  expect(await upstreamCalls(ACCOUNT)).toBe(callsBeforeToggle);

  // Page size is part of the URL too, and a change keeps the rows on screen in view: page 3 of 25
  // (rows 51–75) becomes page 2 of 50 (rows 51–100).
  await page.getByTestId('page-first').click();
  await expect(page.getByTestId('page-position')).toContainText('Page 1 of');
  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-position')).toContainText('Page 2 of');
  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-position')).toContainText('Page 3 of');
  const [firstOnPage3] = await rowIds(page);
  await page.getByTestId('page-size').selectOption('50');
  await expect(page).toHaveURL(/page-size=50&page=2/);
  await expect(resultRows(page)).toHaveCount(50);
  expect((await rowIds(page))[0]).toBe(firstOnPage3);
});

test('the zone picked stays: the header’s links and a new visit open in it, and History says what its UTC days are', async ({
  page,
  baseURL,
}) => {
  await signIn(page, ACCOUNT, baseURL!);
  const calls = await upstreamCalls(ACCOUNT);
  const picked = (zone: string) =>
    expect(page.locator(`[data-zone="${zone}"]`)).toHaveAttribute('aria-checked', 'true');
  await page.goto('/transactions');
  await picked('UTC');
  await page.locator('[data-zone="JST"]').click();
  await expect(page).toHaveURL(/tz=JST/);

  // The header's links name no zone: they open in the one picked.
  await page.getByRole('banner').getByRole('link', { name: 'Insights', exact: true }).click();
  await expect(page).toHaveURL(/\/insights\?.*tz=JST/);
  await picked('JST');
  await page.getByRole('banner').getByRole('link', { name: 'History', exact: true }).click();
  await expect(page).toHaveURL(/\/history/);
  await picked('JST');
  await expect(page.getByTestId('history-days-note')).toContainText('in Japan, 09:00 to 09:00 the next morning');
  // A new visit of a bare page: the default range is read in JST too.
  await page.goto('/transactions');
  await picked('JST');
  await expect(page.getByTestId('range-message')).toContainText('read in Japan time (UTC+9)');
  // A link that names a range but no zone is read as the API reads it: UTC.
  await page.goto(
    `/insights?${new URLSearchParams({ 'date-from': '2026-11-01 00:00:00', 'date-to': '2026-11-02 00:00:00' })}`,
  );
  await picked('UTC');
  // Back to UTC, remembered the same way.
  await page.goto('/insights');
  await page.locator('[data-zone="UTC"]').click();
  await page.goto('/insights');
  await picked('UTC');
  // Nothing of this was a search.
  expect(await upstreamCalls(ACCOUNT)).toBe(calls);
});

test('a result deeper than the pages can reach says so and offers a way to reach it', async ({ page, baseURL }) => {
  await signIn(page, ACCOUNT, baseURL!);
  const to = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.now() - 32 * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/transactions?date-from=${from}+00:00:00&date-to=${to}+00:00:00&tz=UTC&page-size=10`);
  const note = page.getByTestId('truncated-note');
  await expect(note).toContainText('pages stop at 1,000 (10,000 records at 10 a page)');
  await screenshot(page, '10-truncated');
  await note.getByRole('button', { name: '100 a page' }).click();
  await expect(page).toHaveURL(/page-size=100&page=1/);
  await expect(resultRows(page)).toHaveCount(100);
  await expect(note).toHaveCount(0);
});

test('a page past the last one says so and leads to the last page', async ({ page, baseURL }) => {
  await signIn(page, ACCOUNT, baseURL!);
  const window = pastWindow(11, 1, 3);
  const params = new URLSearchParams({
    'date-from': window.from,
    'date-to': window.to,
    tz: 'UTC',
    'page-size': '100',
    page: '40',
  });
  await page.goto(`/transactions?${params}`);
  const state = page.getByTestId('past-last-page');
  await expect(state).toContainText('There is no page 40');
  await expect(resultRows(page)).toHaveCount(0);
  const last = Number((await state.textContent())?.match(/has (\d+) pages?/)?.[1]);
  expect(last).toBeGreaterThan(0);
  expect(last).toBeLessThan(40);
  await state.getByRole('button', { name: `Go to page ${last}` }).click();
  await expect(page).toHaveURL(new RegExp(`page=${last}(&|$)`));
  await expect(resultRows(page).first()).toBeVisible();
  await expect(state).toHaveCount(0);
});

test('an answer shown again from the browser’s memory says when its call was spent', async ({ page, baseURL }) => {
  // The page's clock is Playwright's, so minutes can pass in a moment.
  await page.clock.install();
  await signIn(page, ACCOUNT, baseURL!);
  await page.goto('/transactions');
  const window = pastWindow(5, 3, 9);
  await pickRange(page, window.from, window.to);
  const callsBefore = await upstreamCalls(ACCOUNT);
  await pressSearch(page);
  await expect(resultRows(page).first()).toBeVisible();
  await expect(page.getByTestId('result-source')).toHaveText('From the upstream · 1 call used');

  // Three minutes later the same answer is still on screen, from this browser's memory: its label
  // says when the call was spent, not as if it had just been.
  await page.clock.fastForward('03:00');
  await expect(page.getByTestId('result-source')).toHaveText('From the upstream, 3 min ago · 1 call used then');
  expect(await upstreamCalls(ACCOUNT)).toBe(callsBefore + 1);
});
