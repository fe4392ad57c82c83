/**
 * PUT /api/team/accounts/<id> with `{"secret": "…"}`: replaces the account's secret, without a
 * restart — every session and instance renews its token with it from the next renewal (rotating the
 * team secret: README, "Team mode"). The body is read before the handler runs
 * (lib/team/requests.ts). DELETE: removes an account added here (its sessions move to the
 * environment's account). On the audit log. Admins only.
 */
import { json } from '@/lib/http/problem';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { newSecretRequest } from '@/lib/team/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

const ACCOUNTS = { least: 'admin', what: msg('team.problems.roleNeeded.whatAccounts') } as const;

export const PUT = withAccount<Context, { secret: string }>(
  async (_req, account, { team }, context, { secret }) => {
    const { id } = await context.params;
    return json(await team.replaceSecret(account, id, secret));
  },
  { refuseCrossSite: true, query: newSecretRequest, role: ACCOUNTS },
);

export const DELETE = withAccount<Context>(
  async (_req, account, { team }, context) => {
    const { id } = await context.params;
    await team.removeAccount(account, id);
    return new Response(null, { status: 204 });
  },
  { refuseCrossSite: true, role: ACCOUNTS },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, POST, PATCH, OPTIONS } = otherMethodsRefused(['PUT', 'DELETE']);
