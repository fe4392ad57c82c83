/**
 * Every problem type the server can answer is said in Japanese and in English. The types are not
 * listed by hand: they are read from the source (each `/problems/<name>` a file of lib/ or app/
 * names), so a new problem type without a case below fails the first test, and a case that no
 * longer produces its type fails the second. Each case makes the problem the way the server does
 * (thrown by a service against the simulator, or built by the function the route calls) and
 * renders it for each language as the route wrapper does (toProblem).
 */
import fs from 'node:fs';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRequest } from '../../tests/support/parsed';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { unauthenticated } from '../auth/problems';
import { seal } from '../auth/secret-box';
import { UpstreamPages } from '../cache/upstream-pages';
import { QuotaExceededError } from '../governor/quota-errors';
import { readJsonBody } from '../http/body-limit';
import { headRefused, methodNotAllowed } from '../http/methods';
import { badRequest, crossSiteRefused, notFound, payloadTooLarge } from '../http/problem';
import type { Problem } from '../http/problem-types';
import { LOCALES, type Locale } from '../i18n/locales';
import { msg } from '../i18n/message';
import type { UpstreamBase } from '../query/wire';
import { scrapeResponse } from '../metrics/scrape';
import { CredentialsRefusedError, UpstreamError, type UpstreamErrorKind } from '../upstream/errors';
import { ProblemError } from '../http/problem';
import { revealLimitReached, roleNeeded, teamSecretRefused } from '../team/problems';
import { toProblem } from './error-problems';
import { tooManyAttempts } from './throttled-sign-in';

const ROOT = path.resolve(__dirname, '../..');
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Every non-test source file under lib/ and app/. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(at);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [at] : [];
  });
}

/** The problem types the source names: `/problems/<name>` and `${TYPE_BASE}<name>`. */
function typesInSource(): Set<string> {
  const types = new Set<string>();
  for (const file of [...sourceFiles(path.join(ROOT, 'lib')), ...sourceFiles(path.join(ROOT, 'app'))]) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/['"`](?:\/problems\/|\$\{TYPE_BASE\})([a-z][a-z-]*)['"`]/g))
      types.add(`/problems/${m[1]}`);
  }
  return types;
}

/** Makes a problem once (a service refusing changes what it holds), then says it in a language. */
type Case = () => Promise<(locale: Locale) => Promise<Problem>>;

/** A problem thrown, answered as the route wrapper answers it (toProblem). */
const rendered =
  (make: () => unknown): Case =>
  async () => {
    const err = await Promise.resolve()
      .then(make)
      .then(
        () => new Error('the case threw nothing'),
        (thrown: unknown) => thrown,
      );
    return async (locale) => toProblem(err, locale).problem;
  };

/** A problem a function answers as a Response in the request's language: read back as JSON. */
const answered =
  (make: (locale: Locale) => Response | Promise<Response>): Case =>
  async () =>
  async (locale) =>
    (await (await make(locale)).json()) as Problem;

/** A request in `locale` (the sign-in throttle reads it from the request). */
const requestIn = (locale: Locale) =>
  new NextRequest('http://localhost/api/auth/callback/credentials', {
    method: 'POST',
    headers: { cookie: `sms-locale=${locale}` },
  });

let h: Harness;
beforeAll(async () => {
  // A small space for exports, so one finished export fills it (export-space-full).
  h = await startHarness({ env: { EXPORT_MAX_BYTES_PER_ACCOUNT: '4096' } });
});
afterAll(async () => {
  await h.close();
});

const UPSTREAM_KINDS: UpstreamErrorKind[] = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'rate_limited',
  'unavailable',
  'timeout',
  'malformed',
  'network',
];

/** Each way the server makes a problem, by name. */
const CASES: Record<string, Case> = {
  // Team mode's refusals, made by the functions the routes and services call (lib/team/problems.ts,
  // lib/auth/problems.ts); the two an admin meets on the people and accounts pages as
  // lib/team/team-service.ts makes them.
  'a role that may not': rendered(() => {
    throw roleNeeded('support', 'viewer', msg('team.problems.roleNeeded.whatSearch'));
  }),
  'reveals past the hourly limit': rendered(() => {
    throw revealLimitReached(20, 600_000);
  }),
  'the team secret refused': rendered(() => {
    throw teamSecretRefused('fuji');
  }),
  'a session ended by a suspension': rendered(() => {
    throw unauthenticated('suspended');
  }),
  'suspending oneself': rendered(() => {
    throw new ProblemError({
      type: '/problems/cannot-suspend-yourself',
      title: msg('team.problems.cannotSuspendYourself.title'),
      status: 409,
      detail: msg('team.problems.cannotSuspendYourself.detail'),
    });
  }),
  'removing the environment’s account': rendered(() => {
    throw new ProblemError({
      type: '/problems/env-account',
      title: msg('team.problems.envAccount.title'),
      status: 409,
      detail: msg('team.problems.envAccount.detail'),
    });
  }),
  // Reconciliations' refusals, as lib/reconcile/reconcile-service.ts makes them.
  'too many reconciliations running': rendered(() => {
    throw new ProblemError({
      type: '/problems/too-many-reconciliations',
      title: msg('reconcile.problems.tooMany.title'),
      status: 409,
      detail: msg('reconcile.problems.tooMany.detail', { count: 3 }),
    });
  }),
  'a reconciliation already run': rendered(() => {
    throw new ProblemError({
      type: '/problems/reconciliation-over',
      title: msg('reconcile.problems.over.title'),
      status: 409,
      detail: msg('reconcile.problems.over.detail', { state: 'done' }),
    });
  }),
  'a query a parser refuses': rendered(() => {
    throw badRequest({ page: msg('problems.invalidQuery.title') });
  }),
  'nothing there': rendered(() => {
    throw notFound(msg('problems.notFound.title'));
  }),
  'a body too large': rendered(() => {
    throw payloadTooLarge(8192, msg('problems.crossSite.title'));
  }),
  'another site asking': rendered(() => {
    throw crossSiteRefused();
  }),
  'a method not taken': rendered(() => {
    throw methodNotAllowed('PUT', 'GET, HEAD, OPTIONS');
  }),
  'HEAD refused': rendered(() => {
    throw headRefused();
  }),
  'a body that is not JSON': rendered(() =>
    readJsonBody(
      new Request('http://localhost/api/history', {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: 'enabled=true',
      }),
      4096,
      msg('problems.crossSite.title'),
      '{"enabled": true}',
    ),
  ),
  'the store out of reach': rendered(() => {
    throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  }),
  'a fault of ours': rendered(() => {
    throw new TypeError('bug');
  }),
  'signed out': rendered(() => {
    throw unauthenticated();
  }),
  'the kept secret refused': rendered(() => {
    throw new CredentialsRefusedError('demo', 2, new UpstreamError('unauthorized', 'refused', { status: 401 }));
  }),
  'the quota spent': rendered(() => {
    throw new QuotaExceededError('minute', Date.now() + 45_000, 45_000, 'account', { limit: 3 });
  }),
  'too many sign-in attempts': answered((locale) => tooManyAttempts(requestIn(locale), 120_000, 'http://localhost')),
  'the metrics without their token': answered((locale) => scrapeResponse('Bearer nope', 'scrape-token', locale)),
  'the disk full': rendered(() => {
    throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  }),
  'an upstream answer too large': rendered(() => {
    throw new UpstreamError('malformed', 'too large', { maxBodyBytes: 1_048_576 });
  }),
  'a page beyond the upstream’s reach': rendered(() =>
    // Records 50,000 on in pages of 50: past the upstream's last page, and the cache knows no total.
    new UpstreamPages({
      gateway: h.gateway,
      cache: h.store.cache,
      policy: h.policy,
      pageSize: 50,
      now: Date.now,
    }).slice(
      h.account('demo'),
      { params: {}, key: 'beyond-reach' } as unknown as UpstreamBase,
      0,
      'asc',
      50_000,
      50_100,
      'interactive',
    ),
  ),
  ...Object.fromEntries(
    UPSTREAM_KINDS.map((kind) => [
      `the upstream: ${kind}`,
      rendered(() => {
        throw new UpstreamError(kind, `upstream ${kind}`, { status: 503, upstreamMessage: 'busy' });
      }),
    ]),
  ),
  'too many exports at once': rendered(async () => {
    const busy = { apiKey: 'fuji', enterpriseId: null, sid: 'sid-fuji-problems' };
    const day = (d: number) =>
      exportRequest(
        {
          'date-from': `2026-09-${String(d).padStart(2, '0')} 00:00:00`,
          'date-to': `2026-09-${String(d).padStart(2, '0')} 12:00:00`,
          tz: 'UTC',
        },
        null,
      );
    for (let d = 1; d <= 11; d++) await h.exports.create(busy, day(d));
  }),
  'an export without its file yet': rendered(async () => {
    const asked = { apiKey: 'minato', enterpriseId: null, sid: 'sid-minato-problems' };
    const created = await h.exports.create(
      asked,
      exportRequest({ 'date-from': '2026-09-01 00:00:00', 'date-to': '2026-09-01 12:00:00', tz: 'UTC' }, null),
    );
    if (created.kind !== 'job') throw new Error('expected a job');
    await h.exports.cancel(asked, created.job.id);
    await h.exports.file(asked, created.job.id);
  }),
  'the exports’ space full': rendered(async () => {
    const now = Date.now();
    const full = { apiKey: 'demo', enterpriseId: null, sid: 'sid-demo-problems' };
    await h.store.vault.put({
      ...full,
      sealedSecret: seal('demo-secret', authSecret()),
      createdAt: now,
      expiresAt: now + 3600_000,
    });
    const from = new Date(now - 5 * 86_400_000).toISOString().slice(0, 10);
    const range = exportRequest({ 'date-from': `${from} 00:00:00`, 'date-to': `${from} 12:00:00`, tz: 'UTC' }, null);
    const created = await h.exports.create(full, range);
    if (created.kind !== 'job') throw new Error('expected a job');
    h.exportRunner.start();
    for (const until = Date.now() + 30_000; (await h.exports.get(full, created.job.id)).state !== 'done';) {
      if (Date.now() > until) throw new Error('the export did not finish');
      await new Promise((r) => setTimeout(r, 100));
    }
    await h.exports.create(full, range);
  }),
};

/** Every case in both languages, made once. */
const said = new Map<string, Record<Locale, Problem>>();
beforeAll(async () => {
  for (const [name, make] of Object.entries(CASES)) {
    const say = await make();
    const byLocale = {} as Record<Locale, Problem>;
    for (const locale of LOCALES) byLocale[locale] = await say(locale);
    said.set(name, byLocale);
  }
}, 120_000);

/** A problem's words for a person. */
function words(p: Problem): string[] {
  return [p.title, p.detail, p.reason, ...Object.values(p.errors ?? {})].filter((w): w is string => w !== undefined);
}

describe('every problem type the server answers', () => {
  it('has a case here: the source names no type this test does not make', () => {
    const made = new Set([...said.values()].map((p) => p.en.type));
    const inSource = typesInSource();
    expect(inSource.size).toBeGreaterThan(15);
    expect([...inSource].filter((t) => !made.has(t)).sort(), 'types in the source without a case').toEqual([]);
  });

  it('is made by its case as the server makes it (no case answers a type the source does not name)', () => {
    const inSource = typesInSource();
    for (const [name, { en }] of said) expect(inSource.has(en.type), `${name}: ${en.type}`).toBe(true);
  });

  it('is said in Japanese to a Japanese reader and in English to an English one, title, detail and errors alike', () => {
    const english: string[] = [];
    const notJapanese: string[] = [];
    for (const [name, { en, ja }] of said) {
      for (const w of words(en)) if (JAPANESE.test(w)) english.push(`${name} (en): ${w}`);
      for (const w of words(ja)) if (!JAPANESE.test(w)) notJapanese.push(`${name} (ja): ${w}`);
      // Only the words change: the type, status and every machine-read member stay.
      expect([ja.type, ja.status, Object.keys(ja.errors ?? {})], name).toEqual([
        en.type,
        en.status,
        Object.keys(en.errors ?? {}),
      ]);
    }
    expect(english, 'Japanese in an English answer').toEqual([]);
    expect(notJapanese, 'words left in English for a Japanese reader').toEqual([]);
  });
});
