/**
 * A team person's language through the real route handlers over the real services, SQLite store and
 * simulator (issue 39): PUT /api/team/session keeps it with their own profile, GET shows it, a value
 * that is not a language is a 400 naming the field; and the profile comes first: a person whose
 * profile says English is answered in English even when the browser's cookie and Accept-Language
 * both say Japanese (the cookie still counts for a personal session).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { routeRequest, teamSession, type TestSession } from '../../tests/support/team-session';

let h: Harness;
vi.mock('@/lib/root/services', async (original) => ({
  ...(await original<typeof import('../root/services')>()),
  getServices: async () => h,
}));

const session = await import('../../app/api/team/session/route');
const audit = await import('../../app/api/audit/route');

const NO_CONTEXT = undefined as never;
/** Kana or kanji: words said in Japanese. */
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;
let aiko: TestSession;
let sora: TestSession;

beforeAll(async () => {
  h = await startHarness({
    sim: { days: 1, perDay: 5, seed: 39 },
    env: {
      OIDC_ISSUER: 'http://127.0.0.1:9/unused',
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'oidc-client-secret-never-shown',
      TEAM_SUPPORT_GROUPS: 'sms-support',
      TEAM_API_KEY: 'fuji',
      TEAM_API_SECRET: 'fuji-secret',
    },
  });
  aiko = await teamSession(h, 'aiko', 'support');
  sora = await teamSession(h, 'sora', 'viewer');
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** A request as a Japanese browser sends it: the switch's cookie and Accept-Language both say ja. */
function japanese(path: string, who: TestSession, init: { method?: string; body?: unknown } = {}) {
  const req = routeRequest(path, who, init);
  req.headers.set('accept-language', 'ja-JP,ja;q=0.9');
  req.headers.set('cookie', `${req.headers.get('cookie')}; sms-locale=ja`);
  req.cookies.set('sms-locale', 'ja');
  return req;
}

const put = (who: TestSession, body: unknown) =>
  session.PUT(japanese('/api/team/session', who, { method: 'PUT', body }), NO_CONTEXT);
const whoAmI = async (who: TestSession) =>
  (await (await session.GET(japanese('/api/team/session', who), NO_CONTEXT)).json()) as {
    person: { name: string; locale: string | null };
  };

describe("a team person's language", () => {
  it('is null until picked, kept with their own profile by PUT, and shown by GET', async () => {
    expect((await whoAmI(aiko)).person.locale).toBeNull();
    const res = await put(aiko, { locale: 'en' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ locale: 'en' });
    expect((await whoAmI(aiko)).person.locale).toBe('en');
    expect((await h.team.people()).length).toBe(2);
    // Only their own: the other person's profile is as it was.
    expect((await whoAmI(sora)).person.locale).toBeNull();
  });

  it('refuses what is not a language with a 400 naming the field', async () => {
    for (const locale of ['fr', 'EN', 1, null]) {
      const res = await put(sora, { locale });
      expect(res.status).toBe(400);
      const problem = (await res.json()) as { errors?: Record<string, string> };
      expect(Object.keys(problem.errors ?? {})).toEqual(['locale']);
    }
    expect((await whoAmI(sora)).person.locale).toBeNull();
  });

  it('comes before the cookie and Accept-Language in problem details', async () => {
    await put(aiko, { locale: 'en' });
    // aiko (support) asks for the audit log, an admin's: a 403 in English despite a Japanese browser.
    const refused = await audit.GET(japanese('/api/audit', aiko), NO_CONTEXT);
    expect(refused.status).toBe(403);
    const english = (await refused.json()) as { title: string; detail: string };
    expect(`${english.title} ${english.detail}`).not.toMatch(JAPANESE);
    expect(english.title).toMatch(/[A-Za-z]{3}/);
    // The same refusal for sora, who picked no language: the cookie's Japanese.
    const other = await audit.GET(japanese('/api/audit', sora), NO_CONTEXT);
    expect(other.status).toBe(403);
    expect(((await other.json()) as { title: string }).title).toMatch(JAPANESE);
    // A bad value from aiko is said in English too; once aiko picks Japanese, in Japanese.
    const bad = (await (await put(aiko, { locale: 'fr' })).json()) as { errors: { locale: string } };
    expect(bad.errors.locale).toBe('locale must be one of ja, en.');
    await put(aiko, { locale: 'ja' });
    const again = await audit.GET(japanese('/api/audit', aiko), NO_CONTEXT);
    expect(((await again.json()) as { title: string }).title).toMatch(JAPANESE);
  });
});
