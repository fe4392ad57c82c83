/**
 * End-to-end suite: real Chromium against the dashboard's production build and the bundled
 * simulator. `npm run e2e` builds (into .next-e2e, beside any dev server's .next), starts the
 * simulator and two dashboards (see e2e/env.ts), and runs e2e/*.spec.ts.
 */
import { defineConfig } from '@playwright/test';
import {
  APP_PORT,
  APP_URL,
  CHROMIUM,
  DATA_ROOT,
  DIST_DIR,
  OIDC_PORT,
  OIDC_URL,
  SIM_PORT,
  SIM_URL,
  STRICT_PORT,
  STRICT_URL,
  TEAM_PORT,
} from './e2e/env';

const CI = Boolean(process.env.CI);

const dashboardEnv = (
  port: number,
  name: string,
  limits: [number, number, number],
  extra: Record<string, string> = {},
) => ({
  NODE_ENV: 'production',
  NEXT_DIST_DIR: DIST_DIR,
  DATA_DIR: `${DATA_ROOT}/${name}`,
  UPSTREAM_BASE_URL: SIM_URL,
  NEXTAUTH_URL: `http://localhost:${port}`,
  NEXTAUTH_SECRET: 'e2e-only-secret-0123456789abcdef0123456789abcdef',
  UPSTREAM_LIMIT_PER_MINUTE: String(limits[0]),
  UPSTREAM_LIMIT_PER_HOUR: String(limits[1]),
  UPSTREAM_LIMIT_PER_DAY: String(limits[2]),
  // The specs sign in many times a minute; the flood cap is tested in the vitest suite.
  UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000',
  LOG_LEVEL: 'warn',
  // Requests of the specs' own (Playwright's request contexts, Node's fetch) send no Accept-Language
  // of ours, as scripts do: they are answered in English, the words the specs assert. The browser's
  // pages follow Chromium's locale (en-GB below) as a person's would.
  DEFAULT_LOCALE: 'en',
  NEXT_TELEMETRY_DISABLED: '1',
  // As `npm start`: a stop lets background calls in flight finish (lib/root/graceful-stop.ts).
  NEXT_MANUAL_SIG_HANDLE: 'true',
  ...extra,
});

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  workers: 2,
  retries: CI ? 1 : 0,
  forbidOnly: CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: APP_URL,
    viewport: { width: 1440, height: 900 },
    // English, but not the en-US the dashboard formats its English in: a date or number written by
    // the browser's locale instead of the page's language would show (as the zone below does).
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin', // neither UTC nor JST: the page must never lean on the browser's zone
    launchOptions: CHROMIUM,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      // The upstream stand-in. Its own limits are off: the dashboards' governors are under test.
      command: `npx tsx simulator/cli.ts --port ${SIM_PORT} --no-limits --quiet`,
      url: `${SIM_URL}/__admin/stats`,
      reuseExistingServer: !CI,
      timeout: 60_000,
    },
    {
      // The organisation's identity provider of team mode (tests/support/oidc-provider.ts), with
      // people in each group, for the team spec's dashboard (e2e/team.spec.ts).
      command: `npx tsx tests/support/oidc-provider-cli.ts --port ${OIDC_PORT} --redirect http://localhost:${TEAM_PORT}/api/auth/callback/oidc`,
      url: `${OIDC_URL}/.well-known/openid-configuration`,
      reuseExistingServer: !CI,
      timeout: 60_000,
    },
    {
      command: `npx next build && npx next start -p ${APP_PORT}`,
      url: `${APP_URL}/signin`,
      env: dashboardEnv(APP_PORT, 'roomy', [1000, 10_000, 100_000]),
      reuseExistingServer: !CI,
      timeout: 400_000,
    },
    {
      // Starts after the build above (web servers start in order): same build, real limits, and a
      // short queue wait so a person's request is answered 429 quickly once the minute is spent.
      command: `npx next start -p ${STRICT_PORT}`,
      url: `${STRICT_URL}/signin`,
      env: dashboardEnv(STRICT_PORT, 'strict', [3, 10, 100], { UPSTREAM_QUEUE_WAIT_MS: '1000' }),
      reuseExistingServer: !CI,
      timeout: 60_000,
    },
  ],
});
