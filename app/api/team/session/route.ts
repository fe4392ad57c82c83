/**
 * GET /api/team/session: who is signed in — their name, role and the team account they work on
 * (`{"person": null}` for a personal session), and the team's accounts to choose from.
 * PUT /api/team/session with `{"account": "<id>"}`: works on another team account from the next request.
 */
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { accountChoiceRequest } from '@/lib/team/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, account, { team }) => {
  const person = await team.whoIs(account);
  const accounts = person ? (await team.accounts()).map(({ id, label }) => ({ id, label })) : [];
  return json({ person, accounts, current: account.team?.account ?? null });
});

export const PUT = withAccount(
  async (_req, account, { team }, _context, choice) => json(await team.useAccount(account, choice.account)),
  { refuseCrossSite: true, query: accountChoiceRequest },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'PUT']);
