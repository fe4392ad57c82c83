/**
 * GET /api/transactions/<trx_id>: one CDR. A transaction seen in any cached page costs no call;
 * an unknown one costs one detail call (and a 404 is remembered for a few minutes).
 */
import type { NextRequest } from 'next/server';
import { trxIdProblem } from '@/lib/cdr/trx-id';
import { badRequest } from '@/lib/http/problem';
import { json, withAccount } from '@/lib/http/route';
import { getTransactionsService } from '@/lib/server/services';
import { ZONES, type Zone } from '@/lib/time/zones';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ trxId: string }> };

export const GET = withAccount<Context>(async (req: NextRequest, account, context) => {
  const { trxId } = await context.params;
  const problem = trxIdProblem(trxId);
  const tzRaw = (req.nextUrl.searchParams.get('tz') ?? 'UTC').toUpperCase();
  const errors: Record<string, string> = {};
  if (problem) errors.trx_id = problem;
  if (!(ZONES as readonly string[]).includes(tzRaw)) errors.tz = `tz must be UTC or JST; got "${tzRaw}".`;
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  const { cdr, meta } = await getTransactionsService().record(account, trxId.trim(), tzRaw as Zone, req.signal);
  return json({ ...cdr, _meta: meta });
}, { refuseCrossSite: true });
