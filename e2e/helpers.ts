/**
 * What the specs share: signing in the way a script does (next-auth's own flow), asking the
 * simulator how many upstream calls an account made, driving the search form, and saving
 * screenshots of the main states as artifacts (test-results/screenshots, gitignored).
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect } from './test';
import { SIM_URL } from './env';

export const ACCOUNTS = {
  search: 'demo',
  drawer: 'sakura-ops',
  lookup: 'fuji',
  session: 'minato',
  // Signed out everywhere on purpose, on the strict dashboard, where no other spec holds a session of it.
  signOutEverywhere: 'minato-audit',
  // Shares minato with the session spec, which spends no calls: the counts checked here stay its own.
  security: 'minato',
  quota: 'support',
  // Its own local history, so the Insights spec's copy and counts are its own.
  insights: 'minato-audit',
} as const;

/** Signs the page's browser context in through next-auth's credentials flow (no UI). */
export async function signIn(page: Page, apiKey: string, baseURL: string): Promise<void> {
  const request = page.context().request;
  const { csrfToken } = (await (await request.get(`${baseURL}/api/auth/csrf`)).json()) as { csrfToken: string };
  const res = await request.post(`${baseURL}/api/auth/callback/credentials`, {
    form: {
      csrfToken,
      apiKey,
      apiSecret: `${apiKey}-secret`,
      enterpriseId: '',
      callbackUrl: `${baseURL}/transactions`,
      json: 'true',
    },
    maxRedirects: 0,
  });
  expect(res.status(), 'sign-in answered').toBeLessThan(400);
  const cookies = await page.context().cookies(baseURL);
  expect(
    cookies.some((c) => c.name.includes('next-auth.session-token')),
    'session cookie set',
  ).toBe(true);
}

/** Upstream query + detail calls the simulator has answered for this API key. */
export async function upstreamCalls(apiKey: string): Promise<number> {
  const res = await fetch(`${SIM_URL}/__admin/stats`, { cache: 'no-store' });
  const stats = (await res.json()) as { accounts: Record<string, { requests: number }> };
  return stats.accounts[apiKey]?.requests ?? 0;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: false });
}

/** Waits until the form is live (hydrated, and its price known) before typing into it. */
export async function formReady(page: Page): Promise<void> {
  await expect(page.getByTestId('search-cost')).toContainText(/Uses|From cache|Local history|Correct|Could not/);
}

/** Types a range into the picker (wall clocks in the page's zone, `YYYY-MM-DD HH:MM:SS`). */
export async function pickRange(page: Page, from: string, to: string): Promise<void> {
  await formReady(page);
  await page.locator('input[name="date-from"]').fill(from.replace(' ', 'T'));
  await page.locator('input[name="date-to"]').fill(to.replace(' ', 'T'));
}

export async function pressSearch(page: Page): Promise<void> {
  await page.getByTestId('search-button').click();
}

export function resultRows(page: Page) {
  return page.getByTestId('results-table').locator('tbody tr');
}

/** Serious or critical axe violations (WCAG 2 A/AA) on what is on screen now. */
export async function seriousA11yViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
}

/**
 * A window of a past day (UTC wall clocks, `startHour + hours` at most 23) that no other spec asks
 * for, so its first search is a cache miss.
 */
export function pastWindow(daysAgo: number, hours: number, startHour = 0): { from: string; to: string } {
  const day = new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { from: `${day} ${pad(startHour)}:00:00`, to: `${day} ${pad(startHour + hours)}:00:00` };
}

/** `/transactions?...` for a UTC window, the way a pasted link carries a search. */
export function searchUrl(window: { from: string; to: string }, extra: Record<string, string> = {}): string {
  return `/transactions?${new URLSearchParams({ 'date-from': window.from, 'date-to': window.to, tz: 'UTC', ...extra }).toString()}`;
}

export async function rowIds(page: Page): Promise<string[]> {
  return resultRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id') ?? ''));
}

/** Counts the browser's requests to the dashboard's search endpoint (not plan, quota or detail). */
export function countSearchRequests(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/transactions') counter.count += 1;
  });
  return counter;
}
