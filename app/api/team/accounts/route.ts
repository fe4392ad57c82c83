/**
 * GET /api/team/accounts: the accounts the server holds for the team (never a secret).
 * POST /api/team/accounts with `{"apiKey", "secret", "enterpriseId"?, "label"?}`: adds one, its
 * secret sealed at once (the body read before the handler runs: lib/team/requests.ts). On the audit log. Admins only.
 */
import { json } from '@/lib/http/problem';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { newAccountRequest } from '@/lib/team/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const ACCOUNTS = { least: 'admin', what: msg('team.problems.roleNeeded.whatAccounts') } as const;

export const GET = withAccount(async (_req, _account, { team }) => json({ accounts: await team.accounts() }), {
  role: ACCOUNTS,
});

export const POST = withAccount(
  async (_req, account, { team }, _context, input) => json(await team.addAccount(account, input), { status: 201 }),
  { refuseCrossSite: true, query: newAccountRequest, role: ACCOUNTS },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'POST']);
