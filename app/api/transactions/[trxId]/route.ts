/**
 * GET /api/transactions/<trx_id>: one CDR, looked up by lib/lookup. A transaction seen in the local
 * history or any cached page costs no call; an unknown one costs one detail call (and a 404 is
 * remembered for a few minutes).
 */
import type { NextRequest } from 'next/server';
import { normaliseTrxId, trxIdProblem } from '@/lib/lookup';
import { badRequest, json } from '@/lib/http/problem';
import { noFieldErrors, parseZone, unexpectedParams } from '@/lib/query/query';
import { withAccount } from '@/lib/root/with-account';
import { headRefused, otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ trxId: string }> };

export const GET = withAccount<Context>(
  async (req: NextRequest, account, { lookup }, context) => {
    const { trxId } = await context.params;
    const errors = noFieldErrors();
    const problem = trxIdProblem(trxId);
    if (problem) errors.trx_id = problem;
    // Only `tz`, once, as the list's route: a misspelt or repeated parameter is said, not ignored.
    unexpectedParams(req.nextUrl.searchParams, ['tz'], errors);
    const tz = parseZone(req.nextUrl.searchParams.get('tz'), errors);
    if (Object.keys(errors).length > 0) throw badRequest(errors);
    const { cdr, meta } = await lookup.lookUp(account, normaliseTrxId(trxId), tz, req.signal);
    return json({ ...cdr, _meta: meta });
  },
  { refuseCrossSite: true },
);

/** Not GET's answer without its body: that could spend a call (lib/http/methods.ts headRefused). */
export const HEAD = withAccount<Context>(async () => {
  throw headRefused();
});

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET'], { headRefused: true });
