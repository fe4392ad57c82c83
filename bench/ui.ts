/**
 * bench/ui: what the transactions page costs a browser.
 *  - First-load JavaScript of /transactions, from the production build's own manifests: the root
 *    chunks every page loads plus the client chunks of the root layout and the page (raw and gzip),
 *    and, as a cross-check, the script bytes a real Chromium downloads on first load. Its budget:
 *    200 kB gzip. The same for /insights, whose charts (Recharts) load on that page only: its own
 *    budget, 350 kB gzip.
 *  - Time from pressing Search to rows on screen (real Chromium, in-page clock), on a cache miss
 *    (a range nobody asked for: one upstream call) and on a cache hit (the same range from a fresh
 *    page, so the browser's own cache cannot help: the server answers from its cache).
 *
 *   npm run bench:ui      (BENCH_RUNS=5, NEXT_DIST_DIR=.next-e2e, BENCH_SIM_LATENCY=<ms> add a
 *                          simulated upstream latency; the build is redone when sources are newer)
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ROOT, signIn, simStats, startDashboard, startSimulatorProcess } from './lib/processes';

const DIST_DIR = process.env.NEXT_DIST_DIR ?? '.next-e2e';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SIM_LATENCY = process.env.BENCH_SIM_LATENCY;
const ACCOUNT = { apiKey: 'demo', secret: 'demo-secret' };
const BIG = {
  UPSTREAM_LIMIT_PER_MINUTE: '10000',
  UPSTREAM_LIMIT_PER_HOUR: '100000',
  UPSTREAM_LIMIT_PER_DAY: '1000000',
};
const LIMITS = { ...BIG, UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '1000' };

// ---------------------------------------------------------------------------------------------
// First-load JavaScript from the build manifests

interface ClientManifest {
  entryJSFiles?: Record<string, string[]>;
  entryCSSFiles?: Record<string, { path: string }[] | string[]>;
}

function readClientManifest(route: string): ClientManifest {
  const file = path.join(ROOT, DIST_DIR, 'server/app', `${route}/page_client-reference-manifest.js`);
  const sandbox: { globalThis?: unknown; __RSC_MANIFEST?: Record<string, ClientManifest> } = {};
  sandbox.globalThis = sandbox;
  vm.runInNewContext(fs.readFileSync(file, 'utf8'), sandbox);
  const manifest = sandbox.__RSC_MANIFEST?.[`/${route}/page`];
  if (!manifest) throw new Error(`no client manifest for /${route} in ${file}`);
  return manifest;
}

/** First-load budgets (gzip) of the pages measured. */
const BUDGETS_KB = { transactions: 200, insights: 350 } as const;

function firstLoadFiles(route: string): { js: string[]; css: string[] } {
  const build = JSON.parse(fs.readFileSync(path.join(ROOT, DIST_DIR, 'build-manifest.json'), 'utf8')) as {
    rootMainFiles: string[];
  };
  const client = readClientManifest(route);
  // The route's own layouts count too: a page under a group (`(signed-in)/…`) loads the group's layout.
  const groups = route
    .split('/')
    .slice(0, -1)
    .map((_, i, parts) => `[project]/app/${parts.slice(0, i + 1).join('/')}/layout`);
  const entries = ['[project]/app/layout', ...groups, `[project]/app/${route}/page`];
  const js = new Set(build.rootMainFiles);
  const css = new Set<string>();
  for (const entry of entries) {
    for (const f of client.entryJSFiles?.[entry] ?? []) js.add(f);
    for (const f of client.entryCSSFiles?.[entry] ?? []) css.add(typeof f === 'string' ? f : f.path);
  }
  return { js: [...js], css: [...css] };
}

function sizeOf(files: string[]): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const body = fs.readFileSync(path.join(ROOT, DIST_DIR, f.replace(/^\/?_next\//, '')));
    raw += body.length;
    gzip += zlib.gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

// ---------------------------------------------------------------------------------------------
// Search → rows, in a real browser

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function pastWindow(run: number): { from: string; to: string } {
  // Distinct two-hour windows of past days: each is a first-time search.
  const day = new Date(Date.now() - (2 + run) * 86_400_000).toISOString().slice(0, 10);
  return { from: `${day}T08:00:00`, to: `${day}T10:00:00` };
}

async function openForm(context: BrowserContext, baseUrl: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/transactions?tz=UTC`);
  // Hydrated and priced: the form is live.
  await page
    .getByTestId('search-cost')
    .filter({ hasText: /Uses|From cache/ })
    .waitFor();
  return page;
}

/** Milliseconds from the click on Search to the first rows painted (in-page clock). */
async function searchToRows(page: Page, window: { from: string; to: string }): Promise<number> {
  await page.locator('input[name="date-from"]').fill(window.from);
  await page.locator('input[name="date-to"]').fill(window.to);
  await page
    .getByTestId('search-cost')
    .filter({ hasText: /Uses|From cache/ })
    .waitFor();
  // Sent as source text: tsx would otherwise wrap the function with helpers the page lacks.
  return page.evaluate<number>(`new Promise((resolve) => {
    const button = document.querySelector('[data-testid="search-button"]');
    const done = () => document.querySelector('[data-testid="results-table"]:not([aria-busy="true"]) tbody tr') !== null;
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      // Two frames: the rows are not only in the DOM but painted.
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    const start = performance.now();
    button.click();
  })`);
}

async function browserScriptBytes(
  context: BrowserContext,
  baseUrl: string,
  pagePath = '/transactions?tz=UTC',
): Promise<{ files: number; encoded: number }> {
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('requestfinished', (req) => {
    if (req.resourceType() === 'script') sizes.push(req.sizes().then((s) => s.responseBodySize));
  });
  await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle' });
  const all = await Promise.all(sizes);
  await page.close();
  return { files: all.length, encoded: all.reduce((a, b) => a + b, 0) };
}

async function main() {
  const sim = await startSimulatorProcess(['--no-limits', ...(SIM_LATENCY ? ['--latency', SIM_LATENCY] : [])]);
  const dashboard = await startDashboard({ upstreamUrl: sim.url, distDir: DIST_DIR, env: LIMITS });
  let browser: Browser | undefined;
  try {
    const { js, css } = firstLoadFiles('(signed-in)/transactions');
    const jsSize = sizeOf(js);
    const cssSize = sizeOf(css);

    const cookie = await signIn(dashboard.url, ACCOUNT.apiKey, ACCOUNT.secret);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const signedInContext = async () => {
      const c = await browser!.newContext({ viewport: { width: 1440, height: 900 } });
      await c.addCookies(
        cookie.split('; ').map((pair) => {
          const [name, ...value] = pair.split('=');
          return { name: name!, value: value.join('='), url: dashboard.url };
        }),
      );
      return c;
    };
    const context = await signedInContext();
    const transferred = await browserScriptBytes(context, dashboard.url);
    const insightsFiles = firstLoadFiles('(signed-in)/insights');
    const insightsJs = sizeOf(insightsFiles.js);
    // A browser that has not been on another page: nothing of it is cached yet.
    const fresh = await signedInContext();
    const insightsTransferred = await browserScriptBytes(fresh, dashboard.url, '/insights?tz=UTC');
    await fresh.close();

    // One warm-up search, so the first measured miss does not also pay for the upstream token.
    const warm = await openForm(context, dashboard.url);
    await searchToRows(warm, pastWindow(RUNS + 1));
    await warm.close();

    const misses: number[] = [];
    const hits: number[] = [];
    const callsBefore = (await simStats(sim.url)).accounts[ACCOUNT.apiKey]?.requests ?? 0;
    for (let run = 0; run < RUNS; run++) {
      const window = pastWindow(run);
      const first = await openForm(context, dashboard.url);
      misses.push(await searchToRows(first, window));
      await first.close();
      const again = await openForm(context, dashboard.url);
      hits.push(await searchToRows(again, window));
      await again.close();
    }
    const calls = ((await simStats(sim.url)).accounts[ACCOUNT.apiKey]?.requests ?? 0) - callsBefore;

    const fmt = (v: number[]) =>
      `median ${median(v).toFixed(0)} ms  (min ${Math.min(...v).toFixed(0)}, max ${Math.max(...v).toFixed(0)}; ${v.length} runs)`;
    console.log(`bench:ui — build ${DIST_DIR}, simulator latency ${SIM_LATENCY ?? 0} ms`);
    console.log('');
    console.log('First-load JavaScript of /transactions (build manifests: root chunks + layouts + page)');
    console.log(`  ${js.length} files   ${kb(jsSize.raw)} raw   ${kb(jsSize.gzip)} gzip`);
    console.log(`  CSS: ${css.length} files   ${kb(cssSize.raw)} raw   ${kb(cssSize.gzip)} gzip`);
    console.log(`  Chromium downloaded ${transferred.files} scripts, ${kb(transferred.encoded)} on the wire`);
    console.log(
      `  budget ${BUDGETS_KB.transactions} kB gzip: ${jsSize.gzip / 1024 <= BUDGETS_KB.transactions ? 'within' : 'OVER'}`,
    );
    console.log('');
    console.log('First-load JavaScript of /insights (its charts load on this page only)');
    console.log(`  ${insightsFiles.js.length} files   ${kb(insightsJs.raw)} raw   ${kb(insightsJs.gzip)} gzip`);
    console.log(
      `  Chromium downloaded ${insightsTransferred.files} scripts, ${kb(insightsTransferred.encoded)} on the wire`,
    );
    console.log(
      `  budget ${BUDGETS_KB.insights} kB gzip: ${insightsJs.gzip / 1024 <= BUDGETS_KB.insights ? 'within' : 'OVER'}`,
    );
    // Recharts draws an <svg class="recharts-surface">: that string marks its code in a chunk.
    const chartsIn = (files: string[]) =>
      files.some((f) =>
        fs.readFileSync(path.join(ROOT, DIST_DIR, f.replace(/^\/?_next\//, '')), 'utf8').includes('recharts-surface'),
      );
    console.log(
      `  Recharts in the first load of /insights: ${chartsIn(insightsFiles.js) ? 'yes' : 'no'}; of /transactions: ${chartsIn(js) ? 'yes' : 'no'}`,
    );
    console.log('');
    console.log('Search pressed → rows on screen');
    console.log(`  cache miss (1 upstream call each): ${fmt(misses)}`);
    console.log(`  cache hit  (fresh page, no call):  ${fmt(hits)}`);
    console.log(`  upstream calls made by the measured searches: ${calls} (expected ${RUNS})`);
  } finally {
    await browser?.close();
    await dashboard.stop();
    await sim.stop();
    fs.rmSync(dashboard.dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
