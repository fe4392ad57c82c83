/**
 * A signed-in page's session check while the store cannot be reached: the page says so (and tries
 * again) instead of failing with Next.js's error page, and nobody is sent to sign in.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const lookup = vi.hoisted(() => ({ account: vi.fn(), ended: vi.fn() }));
vi.mock('next/headers', () => ({
  cookies: async () => ({ getAll: () => [], get: () => undefined }),
  headers: async () => new Headers(),
}));
vi.mock('next/navigation', () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error('NEXT_REDIRECT'), { to });
  },
}));
vi.mock('./services', () => ({
  getServices: async () => ({ vault: {}, team: { confirm: async (account: unknown) => account } }),
}));
vi.mock('../auth/session', () => ({ accountFromCookies: lookup.account, endedSessionReason: lookup.ended }));

const { requirePageSession, signedInAlready } = await import('./page-session');

const restarting = () => Object.assign(new Error('the database system is shutting down'), { code: '57P03' });

beforeEach(() => {
  lookup.account.mockReset();
  lookup.ended.mockReset().mockResolvedValue(null);
});

describe("a page's session", () => {
  it('is the account when signed in', async () => {
    lookup.account.mockResolvedValue({
      apiKey: 'demo',
      enterpriseId: 'ent-sakura',
      sid: 's',
      credentials: async () => ({}),
    });
    expect(await requirePageSession('/history')).toEqual({
      account: { apiKey: 'demo', enterpriseId: 'ent-sakura', role: 'admin' },
    });
  });

  it('is "unavailable" while the store cannot be reached, whether the account or why it ended was being looked up', async () => {
    lookup.account.mockRejectedValue(restarting());
    expect(await requirePageSession('/history')).toEqual({ unavailable: true });
    lookup.account.mockResolvedValue(null);
    lookup.ended.mockRejectedValue(restarting());
    expect(await requirePageSession('/history')).toEqual({ unavailable: true });
    // The sign-in page shows its form: signing in then says itself that the store is down.
    lookup.account.mockRejectedValue(restarting());
    expect(await signedInAlready()).toBe(false);
  });

  it('sends someone not signed in to sign in, and lets any other failure through', async () => {
    lookup.account.mockResolvedValue(null);
    await expect(requirePageSession('/history')).rejects.toMatchObject({ to: expect.stringContaining('/signin') });
    lookup.account.mockRejectedValue(new TypeError('a bug'));
    await expect(requirePageSession('/history')).rejects.toThrow('a bug');
    await expect(signedInAlready()).rejects.toThrow('a bug');
  });
});
