/**
 * GET /api/team/session: who is signed in — their name, role and the team account they work on
 * (`{"person": null}` for a personal session), and the team's accounts to choose from.
 * PUT /api/team/session with `{"account": "<id>"}`: works on another team account from the next request.
 */
import type { NextRequest } from 'next/server';
import { readJsonBody } from '@/lib/http/body-limit';
import { badRequest, json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, account, { team }) => {
  const person = await team.whoIs(account);
  const accounts = person ? (await team.accounts()).map(({ id, label }) => ({ id, label })) : [];
  return json({ person, accounts, current: account.team?.account ?? null });
});

export const PUT = withAccount(
  async (req: NextRequest, account, { team }) => {
    if (!account.team) throw badRequest({ account: 'A personal session works on its own account only.' });
    const body = (await readJsonBody(req, 1024, 'Send only account, as JSON.', '{"account": "env"}')) as Record<
      string,
      unknown
    > | null;
    const id = typeof body?.account === 'string' ? body.account : '';
    if (!id)
      throw badRequest({ account: 'account must be the id of a team account (GET /api/team/session lists them).' });
    return json(await team.useAccount(account, id));
  },
  { refuseCrossSite: true },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'PUT']);
