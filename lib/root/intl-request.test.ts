/**
 * A page's language (next-intl's request config): a signed-in team person's profile first, from the
 * page's own account (no read of its own); the cookie's otherwise.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const lookup = vi.hoisted(() => ({ account: vi.fn() }));
vi.mock('next/headers', () => ({
  cookies: async () => ({
    getAll: () => [],
    get: (name: string) => (name === 'sms-locale' ? { value: 'ja' } : undefined),
  }),
  headers: async () => new Headers({ 'accept-language': 'ja-JP,ja;q=0.9' }),
}));
// next-intl's wrapper is for Next's server build; the config function itself is what is tested.
vi.mock('next-intl/server', () => ({ getRequestConfig: <F>(fn: F) => fn }));
vi.mock('./services', () => ({
  getServices: async () => ({ vault: {}, team: { confirm: async (account: unknown) => account } }),
}));
vi.mock('../auth/session', () => ({ accountFromCookies: lookup.account, endedSessionReason: async () => null }));

const config = (await import('./intl-request')).default as unknown as (params: object) => Promise<{ locale: string }>;
const localeNow = async () => (await config({ requestLocale: Promise.resolve(undefined) })).locale;
const account = (team: object | null) => ({ apiKey: 'fuji', enterpriseId: null, sid: 's', team, credentials: vi.fn() });

beforeEach(() => lookup.account.mockReset());

describe("a page's language", () => {
  it("is a team person's profile before the cookie and Accept-Language", async () => {
    lookup.account.mockResolvedValue(account({ person: 'aiko', role: 'support', account: 'env', locale: 'en' }));
    expect(await localeNow()).toBe('en');
  });

  it("is the cookie's for a team person who picked none, a personal session, or nobody signed in", async () => {
    lookup.account.mockResolvedValue(account({ person: 'aiko', role: 'support', account: 'env' }));
    expect(await localeNow()).toBe('ja');
    lookup.account.mockResolvedValue(account(null));
    expect(await localeNow()).toBe('ja');
    lookup.account.mockResolvedValue(null);
    expect(await localeNow()).toBe('ja');
  });
});
