/**
 * Team mode's one rule, through the real route handlers (as Next.js calls them) over the real
 * services, SQLite store and simulator: every route that answers records is fed a support session
 * and every byte of every answer — JSON pages (upstream and local history), their CSV, one record,
 * an export's file, Insights, the job list, the price of a search — is scanned for any full phone
 * number or message text of the simulator's records; so is every log line written meanwhile, and
 * for the team account's secret too. The same routes give an admin the numbers (so the scan can
 * fail), refuse a viewer with a 403 naming the role needed, and a reveal answers one record whole,
 * on the audit log, within the hourly limit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadHistoryFixture } from '../../tests/support/history-fixture';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { params, routeRequest, teamSession, type TestSession } from '../../tests/support/team-session';
import { addDays, lastSettledDay, startOf } from '../history/days';
import { scopeOf } from '../history/scope';
import { formatWallClock } from '../time/zones';
import { DAY_MS, HOUR_MS } from '../time/units';
import { isNumber } from './masking';

let h: Harness;
vi.mock('@/lib/root/services', async (original) => ({
  ...(await original<typeof import('../root/services')>()),
  getServices: async () => h,
}));

const transactions = await import('../../app/api/transactions/route');
const record = await import('../../app/api/transactions/[trxId]/route');
const reveal = await import('../../app/api/transactions/[trxId]/reveal/route');
const exportsRoute = await import('../../app/api/exports/route');
const exportRoute = await import('../../app/api/exports/[id]/route');
const exportFile = await import('../../app/api/exports/[id]/file/route');
const insights = await import('../../app/api/insights/route');
const plan = await import('../../app/api/plan/route');
const quota = await import('../../app/api/quota/route');
const history = await import('../../app/api/history/route');
const audit = await import('../../app/api/audit/route');
const session = await import('../../app/api/team/session/route');
const pageCsv = await import('../../app/api/audit/page-csv/route');

/** What Next.js passes a static route's handler as its context. */
const NO_CONTEXT = undefined as never;
const TEAM_SECRET = 'fuji-secret';
const ENTERPRISE = 'ent-fuji';
let support: TestSession;
let viewer: TestSession;
let admin: TestSession;
let localDays: { from: string; to: string };
/** Everything the simulator holds that a masked role must never get: full numbers, message text. */
let secrets: string[];
const logLines: string[] = [];

beforeAll(async () => {
  h = await startHarness({
    sim: { days: 8, perDay: 600, seed: 35 },
    env: {
      OIDC_ISSUER: 'http://127.0.0.1:9/unused',
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'oidc-client-secret-never-shown',
      TEAM_SUPPORT_GROUPS: 'sms-support',
      TEAM_API_KEY: 'fuji',
      TEAM_API_SECRET: TEAM_SECRET,
      REVEAL_LIMIT_PER_HOUR: '2',
      UPSTREAM_LIMIT_PER_MINUTE: '1000',
      UPSTREAM_LIMIT_PER_HOUR: '10000',
      UPSTREAM_LIMIT_PER_DAY: '100000',
    },
  });
  const last = lastSettledDay(h.policy.settledBefore(Date.now()));
  localDays = { from: addDays(last, -2), to: last };
  await loadHistoryFixture(h.store.history, h.sim.dataset, {
    scope: scopeOf({ apiKey: 'fuji', enterpriseId: null }).key,
    enterpriseId: ENTERPRISE,
    fromDay: localDays.from,
    toDay: localDays.to,
  });
  const all = h.sim.dataset.query({
    from: 0,
    to: Date.now() + DAY_MS,
    enterpriseId: ENTERPRISE,
    order: 'asc',
    offset: 0,
    limit: 10_000_000,
  });
  const found = new Set<string>();
  for (const i of all.indices) {
    const r = h.sim.dataset.recordAt(i, 'UTC') as unknown as Record<string, string>;
    found.add(r.to_address!);
    if (isNumber(r.from_address!) && r.from_address!.length > 6) found.add(r.from_address!);
    for (const body of [r.message_body, r.unencrypted_message_body]) if (body && body.length >= 8) found.add(body);
  }
  secrets = [...found];
  support = await teamSession(h, 'sora', 'support', { name: 'Sora Support' });
  viewer = await teamSession(h, 'vic', 'viewer', { name: 'Vic Viewer' });
  admin = await teamSession(h, 'aiko', 'admin', { name: 'Aiko Admin' });
  h.start();
  vi.stubEnv('LOG_LEVEL', 'debug');
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logLines.push(String(chunk));
      return true;
    });
  }
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await h?.close();
});

/** What a masked answer must not hold: each full number or message text found in it. */
function leaks(text: string): string[] {
  return secrets.filter((s) => text.includes(s));
}

const wall = (ms: number) => formatWallClock(new Date(ms), 'UTC');
const recentRange = () => ({ 'date-from': wall(Date.now() - 6 * HOUR_MS), 'date-to': wall(Date.now()), tz: 'UTC' });
const localRange = () => ({
  'date-from': `${localDays.from} 00:00:00`,
  'date-to': `${localDays.to} 23:59:59`,
  tz: 'UTC',
});
const qs = (p: Record<string, string>) => new URLSearchParams(p).toString();
const ALL_COLUMNS = 'trx_id,date_received,to_address,from_address,message_body,unencrypted_message_body,ref';

/** Every answer a person gets from the routes that answer records, as text. */
async function everyAnswer(who: TestSession): Promise<{ route: string; status: number; text: string }[]> {
  const answers: { route: string; status: number; text: string }[] = [];
  const take = async (route: string, res: Response) => {
    answers.push({ route, status: res.status, text: await res.text() });
    return answers[answers.length - 1]!;
  };
  const upstreamPage = await take(
    'page (upstream)',
    await transactions.GET(
      routeRequest(`/api/transactions?${qs({ ...recentRange(), 'page-size': '100' })}`, who),
      NO_CONTEXT,
    ),
  );
  await take(
    'page (local history)',
    await transactions.GET(
      routeRequest(`/api/transactions?${qs({ ...localRange(), 'page-size': '100' })}`, who),
      NO_CONTEXT,
    ),
  );
  await take(
    'page, id-text',
    await transactions.GET(
      routeRequest(`/api/transactions?${qs({ ...localRange(), 'id-text': 'FUJI' })}`, who),
      NO_CONTEXT,
    ),
  );
  await take(
    'page CSV',
    await transactions.GET(
      routeRequest(`/api/transactions?${qs({ ...localRange(), 'page-size': '100', columns: ALL_COLUMNS })}`, who, {
        accept: 'text/csv',
      }),
      NO_CONTEXT,
    ),
  );
  const trxId =
    upstreamPage.status === 200
      ? (JSON.parse(upstreamPage.text) as { _embedded: { cdrs: { trx_id: string }[] } })._embedded.cdrs[0]?.trx_id
      : h.sim.dataset.trxIdAt(h.sim.dataset.size - 1);
  await take(
    'record',
    await record.GET(routeRequest(`/api/transactions/${trxId}?tz=JST`, who), params({ trxId: trxId! })),
  );
  await take('insights', await insights.GET(routeRequest(`/api/insights?${qs(localRange())}`, who), NO_CONTEXT));
  await take('plan', await plan.GET(routeRequest(`/api/plan?${qs(recentRange())}`, who), NO_CONTEXT));
  await take('quota', await quota.GET(routeRequest('/api/quota', who), NO_CONTEXT));
  await take('history', await history.GET(routeRequest('/api/history', who), NO_CONTEXT));
  await take('session', await session.GET(routeRequest('/api/team/session', who), NO_CONTEXT));
  const created = await take(
    'export',
    await exportsRoute.POST(
      routeRequest('/api/exports', who, {
        method: 'POST',
        body: { ...localRange(), columns: ALL_COLUMNS.split(',') },
      }),
      NO_CONTEXT,
    ),
  );
  if (created.status === 201) {
    const id = (JSON.parse(created.text) as { id: string }).id;
    let state = '';
    for (let i = 0; i < 200 && state !== 'done'; i++) {
      const job = await exportRoute.GET(routeRequest(`/api/exports/${id}`, who), params({ id }));
      state = ((await job.json()) as { state: string }).state;
      if (state !== 'done') await new Promise((r) => setTimeout(r, 100));
    }
    expect(state, 'the export finished').toBe('done');
    await take('export file', await exportFile.GET(routeRequest(`/api/exports/${id}/file`, who), params({ id })));
    await take('export list', await exportsRoute.GET(routeRequest('/api/exports', who), NO_CONTEXT));
  }
  return answers;
}

describe('a support session', () => {
  it('gets no full number and no message text in any answer, CSV, export file or log line', async () => {
    logLines.length = 0;
    const answers = await everyAnswer(support);
    expect(answers.map((a) => [a.route, a.status])).toEqual(
      answers.map((a) => [a.route, a.route === 'export' ? 201 : 200]),
    );
    for (const a of answers) expect(leaks(a.text), `${a.route} holds a full number or message text`).toEqual([]);
    // The rule is applied, not merely nothing shown: masked numbers are there, and `_meta` says so.
    const page = answers.find((a) => a.route === 'page (local history)')!;
    const cdrs = (
      JSON.parse(page.text) as { _embedded: { cdrs: Record<string, string>[] }; _meta: { masked?: boolean } }
    )._embedded.cdrs;
    expect(cdrs.length).toBeGreaterThan(10);
    for (const cdr of cdrs) {
      expect(cdr.to_address).toMatch(/^\d{2}\*+\d{4}$/);
      expect(cdr.message_body).toBe('');
    }
    expect(JSON.parse(page.text)._meta.masked).toBe(true);
    expect(answers.find((a) => a.route === 'insights')!.text).toContain('81******5678');
    const file = answers.find((a) => a.route === 'export file')!.text;
    expect(file.split('\r\n').length).toBeGreaterThan(10);
    // Nothing written to the log holds a number, a text or the team's secrets.
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(leaks(log)).toEqual([]);
    expect(log).not.toContain(TEAM_SECRET);
    expect(log).not.toContain('oidc-client-secret-never-shown');
    for (const a of answers) expect(a.text).not.toContain(TEAM_SECRET);
  }, 120_000);

  it('may not search free text over messages and numbers, nor more than the last 4 digits (403 naming the role)', async () => {
    for (const extra of [{ q: '予約' }, { 'da-suffix': '345678' }, { sort: 'to_address' }] as Record<
      string,
      string
    >[]) {
      const res = await transactions.GET(
        routeRequest(`/api/transactions?${qs({ ...localRange(), ...extra })}`, support),
        NO_CONTEXT,
      );
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        type: '/problems/role-needed',
        neededRole: 'admin',
        yourRole: 'support',
      });
    }
    const ok = await transactions.GET(
      routeRequest(`/api/transactions?${qs({ ...localRange(), 'da-suffix': '5678' })}`, support),
      NO_CONTEXT,
    );
    expect(ok.status).toBe(200);
  });

  it('reveals one record whole with a reason, on the audit log, up to the hourly limit', async () => {
    const trxId = h.sim.dataset.trxIdAt(
      h.sim.dataset.query({
        from: startOf(localDays.from),
        to: startOf(localDays.to),
        enterpriseId: ENTERPRISE,
        order: 'asc',
        offset: 0,
        limit: 5,
      }).indices[0]!,
    );
    const full = h.sim.dataset.recordAt(h.sim.dataset.findByTrxId(trxId)!, 'UTC') as unknown as Record<string, string>;
    const ask = (who: TestSession, reason: string) =>
      reveal.POST(
        routeRequest(`/api/transactions/${trxId}/reveal?tz=UTC`, who, { method: 'POST', body: { reason } }),
        params({ trxId }),
      );
    expect((await ask(support, 'too short')).status).toBe(400);
    expect((await ask(viewer, 'Customer called about a missing code')).status).toBe(403);
    const first = await ask(support, 'Customer called about a missing code');
    expect(first.status).toBe(200);
    const revealed = (await first.json()) as Record<string, unknown>;
    expect(revealed.to_address).toBe(full.to_address);
    expect(revealed.message_body).toBe(full.message_body);
    expect(revealed._meta).toMatchObject({ revealed: true });
    expect((await ask(support, 'Second look for the same ticket')).status).toBe(200);
    const third = await ask(support, 'A third one is past the limit');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('Retry-After'))).toBeGreaterThan(3000);
    expect(await third.json()).toMatchObject({ type: '/problems/reveal-limit' });

    // "Who looked this number up?": typed as a person writes it, found through its keyed hash.
    const typed = `+${full.to_address!.slice(0, 2)} ${full.to_address!.slice(2)}`;
    const log = await audit.GET(
      routeRequest(`/api/audit?${qs({ number: typed, action: 'reveal' })}`, admin),
      NO_CONTEXT,
    );
    const { entries } = (await log.json()) as { entries: { actor: string; trxId: string; reason: string }[] };
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ actor: 'sora', trxId, reason: 'Second look for the same ticket' });
    // The log itself holds the hash, never the number.
    const rows = await h.store.db.selectFrom('team_audit').selectAll().execute();
    expect(leaks(JSON.stringify(rows))).toEqual([]);
    expect((await audit.GET(routeRequest('/api/audit', support), NO_CONTEXT)).status).toBe(403);
  });
});

describe('the rows on screen written as CSV in the browser', () => {
  it('go on the audit log when the page says so, the number in the query masked and kept as its hash', async () => {
    const query = { ...localRange(), da: '819012345678' };
    const res = await pageCsv.POST(
      routeRequest('/api/audit/page-csv', support, { method: 'POST', body: { query, rows: 25 } }),
      NO_CONTEXT,
    );
    expect(res.status).toBe(204);
    const log = await audit.GET(
      routeRequest(`/api/audit?${qs({ action: 'page-csv', number: '090-1234-5678' })}`, admin),
      NO_CONTEXT,
    );
    const { entries } = (await log.json()) as { entries: { actor: string; query: string; detail: string }[] };
    expect(entries[0]).toMatchObject({ actor: 'sora', detail: '25 rows on screen' });
    expect(entries[0]!.query).toContain('da=81******5678');
  });
});

describe('an admin session', () => {
  it('gets the full numbers and text on the same routes (the scan above can fail)', async () => {
    const answers = await everyAnswer(admin);
    const page = answers.find((a) => a.route === 'page (local history)')!;
    expect(leaks(page.text).length).toBeGreaterThan(10);
    expect(leaks(answers.find((a) => a.route === 'export file')!.text).length).toBeGreaterThan(10);
    expect(JSON.parse(page.text)._meta.masked).toBeUndefined();
  }, 120_000);

  it('sees every export of the account; support sees only its own', async () => {
    const listOf = async (who: TestSession) =>
      (
        (await (await exportsRoute.GET(routeRequest('/api/exports', who), NO_CONTEXT)).json()) as {
          jobs: { id: string }[];
        }
      ).jobs;
    const adminJobs = await listOf(admin);
    const supportJobs = await listOf(support);
    expect(adminJobs.length).toBe(supportJobs.length + 1);
    // The admin's file holds numbers: a support person cannot open it, even knowing its id.
    const mine = adminJobs.find((j) => !supportJobs.some((s) => s.id === j.id))!;
    const refused = await exportFile.GET(
      routeRequest(`/api/exports/${mine.id}/file`, support),
      params({ id: mine.id }),
    );
    expect(refused.status).toBe(404);
  });
});

describe('a viewer session', () => {
  it('is refused every record-level route with a 403 naming the role needed, and gets Insights', async () => {
    const answers = await everyAnswer(viewer);
    const byRoute = Object.fromEntries(answers.map((a) => [a.route, a]));
    for (const route of ['page (upstream)', 'page (local history)', 'page CSV', 'record', 'plan', 'export']) {
      expect(byRoute[route]!.status, route).toBe(403);
      expect(JSON.parse(byRoute[route]!.text)).toMatchObject({
        type: '/problems/role-needed',
        neededRole: 'support',
        yourRole: 'viewer',
      });
    }
    expect(byRoute.insights!.status).toBe(200);
    expect(leaks(byRoute.insights!.text)).toEqual([]);
    expect(byRoute.quota!.status).toBe(200);
  }, 60_000);
});
