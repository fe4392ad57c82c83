/**
 * PUT /api/team/people/<id> with `{"suspended": true}`: suspends the person at once — every session of
 * theirs ends on every instance (their next click meets sign-in, told why) and their next sign-in is
 * refused — or, with `false`, restores them. On the audit log. Admins only; not oneself.
 */
import { json } from '@/lib/http/problem';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { suspensionRequest } from '@/lib/team/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const PUT = withAccount<Context, { suspended: boolean }>(
  async (_req, account, { team }, context, { suspended }) => {
    const { id } = await context.params;
    return json(suspended ? await team.suspend(account, id) : await team.restore(account, id));
  },
  {
    refuseCrossSite: true,
    query: suspensionRequest,
    role: { least: 'admin', what: msg('team.problems.roleNeeded.whatPeople') },
  },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['PUT']);
