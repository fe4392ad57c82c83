import { expect, test } from './test';
import {
  ACCOUNTS,
  pastWindow,
  resultRows,
  rowIds,
  screenshot,
  searchUrl,
  seriousA11yViolations,
  signIn,
  upstreamCalls,
} from './helpers';

const ACCOUNT = ACCOUNTS.drawer;

test('the detail drawer: open, move with the keyboard, copy, close, link to it', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await signIn(page, ACCOUNT, baseURL!);
  const window = pastWindow(3, 8, 8);
  // A pasted link with a query searches on load.
  await page.goto(searchUrl(window));
  await expect(resultRows(page).first()).toBeVisible();
  expect(await seriousA11yViolations(page), 'main page').toEqual([]);
  const ids = await rowIds(page);

  await resultRows(page).nth(1).click();
  const drawer = page.getByTestId('detail-drawer');
  await expect(drawer).toBeVisible();
  await expect(page.getByTestId('drawer-trx-id')).toHaveText(ids[1]!);
  await expect(page).toHaveURL(new RegExp(`row=${ids[1]}`));
  for (const group of ['Message', 'Submission', 'Network', 'Delivery', 'Price']) {
    await expect(drawer.getByRole('heading', { name: group })).toBeVisible();
  }
  await expect(drawer.getByTestId('latency')).toContainText('Delivery latency');

  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('drawer-trx-id')).toHaveText(ids[2]!);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('drawer-trx-id')).toHaveText(ids[0]!);
  await expect(page).toHaveURL(new RegExp(`row=${ids[0]}`));

  await drawer.getByRole('button', { name: 'Copy transaction ID' }).first().click();
  await expect(drawer.getByText('Copied').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ids[0]);
  expect(await seriousA11yViolations(page, '[data-testid="detail-drawer"]'), 'drawer').toEqual([]);
  await screenshot(page, '04-drawer');

  // Esc closes and hands the focus back to the row.
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(page.locator(`tr[data-row-id="${ids[0]}"]`)).toBeFocused();
  expect(new URL(page.url()).searchParams.has('row')).toBe(false);

  // Keyboard only: move down the rows and open one with Enter.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(`tr[data-row-id="${ids[1]}"]`)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('drawer-trx-id')).toHaveText(ids[1]!);
  await page.keyboard.press('Escape');
  // Back closes it too, and the focus goes back to the row, not to the page.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('drawer-trx-id')).toHaveText(ids[1]!);
  await page.goBack();
  await expect(page.getByTestId('detail-drawer')).toHaveCount(0);
  await expect(page.locator(`tr[data-row-id="${ids[1]}"]`)).toBeFocused();

  // A link with an open row, pasted into a new page.
  const calls = await upstreamCalls(ACCOUNT);
  const second = await context.newPage();
  await second.goto(searchUrl(window, { row: ids[4]! }));
  await expect(second.getByTestId('drawer-trx-id')).toHaveText(ids[4]!);
  // The results and the CSV button come in behind the open drawer: its title keeps the focus.
  await expect(second.getByTestId('download-csv')).toBeAttached();
  await expect(second.locator('#drawer-title')).toBeFocused();
  // …and one whose row is not on the page it shows: fetched by its id (seen before, so free).
  await second.goto(searchUrl(window, { page: '2', row: ids[0]! }));
  await expect(second.getByTestId('drawer-trx-id')).toHaveText(ids[0]!);
  await expect(second.getByTestId('detail-drawer')).toContainText('fetched by its ID');
  await expect(second.getByTestId('detail-drawer').getByRole('heading', { name: 'Delivery' })).toBeVisible();
  expect(await upstreamCalls(ACCOUNT)).toBe(calls);
  await second.close();

  // "Filter by this value" puts the value in the form, to be searched when the person says so.
  await resultRows(page).first().click();
  const from = (
    await page.locator('[data-testid="detail-drawer"] [data-field="from_address"] dd span span').first().innerText()
  ).trim();
  await page.getByRole('button', { name: `Filter by From: ${from}` }).click();
  await expect(page.getByTestId('detail-drawer')).toHaveCount(0);
  await expect(page.locator('#filter-oa')).toHaveValue(from);
  await expect(page.getByTestId('search-button')).toBeFocused();
});

test('on a phone, the results, the drawer, the CSV dialog and a transaction page fit the screen', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  try {
    await signIn(page, ACCOUNT, baseURL!);
    await page.goto(searchUrl(pastWindow(3, 8, 8)));
    await expect(resultRows(page).first()).toBeVisible();
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    // The status badges' hidden text once escaped the table's scroll box and made the page 818 px wide.
    expect(await width()).toBe(390);
    // Scrolled sideways, the table keeps each row's received time in view.
    const scroller = page.getByTestId('results-table').locator('..');
    await scroller.evaluate((el) => el.scrollTo(400, 0));
    const received = (await resultRows(page).first().locator('td').first().boundingBox())!;
    expect(received.x).toBeGreaterThanOrEqual(0);
    expect(received.x).toBeLessThan(40);
    const onScreen = async (testId: string) => {
      const box = (await page.getByTestId(testId).boundingBox())!;
      expect(box.x, testId).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, testId).toBeLessThanOrEqual(390);
    };
    await resultRows(page).first().tap();
    await expect(page.getByTestId('detail-drawer')).toBeVisible();
    await onScreen('drawer-close');
    // Its body scrolls, the drawer does not: scrolled to the end, Close is still on the screen.
    const drawer = page.getByTestId('detail-drawer');
    expect(await drawer.evaluate((d) => d.scrollHeight - d.clientHeight)).toBe(0);
    await drawer.evaluate((d) => d.querySelector('[data-testid="drawer-body"]')?.scrollTo(0, 100_000));
    await onScreen('drawer-close');
    const id = await page.getByTestId('drawer-trx-id').innerText();
    await page.getByTestId('drawer-close').tap();
    await page.getByTestId('download-csv').tap();
    await onScreen('download-dialog');
    await page.keyboard.press('Escape');
    await page.goto(`/transactions/${id}`);
    await expect(page.getByTestId('page-trx-id')).toHaveText(id);
    await expect(page.getByRole('heading', { name: 'Message' })).toBeVisible();
    expect(await width()).toBe(390);
    await screenshot(page, 'phone-transaction');
  } finally {
    await context.close();
  }
});
