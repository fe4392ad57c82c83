/**
 * GET /api/transactions/<trx_id>: one CDR, looked up by lib/lookup. A transaction seen in the local
 * history or any cached page costs no call; an unknown one costs one detail call (and a 404 is
 * remembered for a few minutes). The id and `tz` are checked before anything is spent
 * (lib/lookup/lookup-request.ts).
 */
import type { NextRequest } from 'next/server';
import { json } from '@/lib/http/problem';
import { lookupRequest, type LookupRequest } from '@/lib/lookup/server';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { headRefused, otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ trxId: string }> };

export const GET = withAccount<Context, LookupRequest>(
  async (req: NextRequest, account, { lookup, present }, _context, { trxId, tz }) => {
    const { cdr, meta } = await lookup.lookUp(account, trxId, tz, req.signal);
    const presenter = present(account);
    return json({ ...presenter.record(cdr), _meta: presenter.meta(meta) });
  },
  {
    refuseCrossSite: true,
    query: lookupRequest,
    role: { least: 'support', what: msg('team.problems.roleNeeded.whatRecord') },
  },
);

/** Not GET's answer without its body: that could spend a call (lib/http/methods.ts headRefused). */
export const HEAD = withAccount<Context>(async () => {
  throw headRefused();
});

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET'], { headRefused: true });
