/**
 * GET /api/team/session: who is signed in — their name, role and the team account they work on
 * (`{"person": null}` for a personal session), the language kept with their profile (`person.locale`,
 * null until they pick one), and the team's accounts to choose from.
 * PUT /api/team/session with `{"account": "<id>"}`: works on another team account from the next request;
 * with `{"locale": "ja" | "en"}` (or both): keeps the person's language with their own profile.
 */
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { sessionChangeRequest } from '@/lib/team/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, account, { team }) => {
  const person = await team.whoIs(account);
  const accounts = person ? (await team.accounts()).map(({ id, label }) => ({ id, label })) : [];
  return json({ person, accounts, current: account.team?.account ?? null });
});

export const PUT = withAccount(
  async (_req, account, { team }, _context, change) => {
    if (change.locale) await team.setLocale(account, change.locale);
    const moved = change.account ? await team.useAccount(account, change.account) : {};
    return json({ ...moved, ...(change.locale ? { locale: change.locale } : {}) });
  },
  { refuseCrossSite: true, query: sessionChangeRequest },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'PUT']);
