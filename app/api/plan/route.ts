/**
 * GET /api/plan?<the query of /api/transactions>: what that search would cost (upstream calls, or
 * served from the cache and how old), and the quota left — so the page can say so before a person
 * spends a call. Costs no upstream call itself.
 */
import type { NextRequest } from 'next/server';
import { badRequest } from '@/lib/http/problem';
import { json, withAccount } from '@/lib/http/route';
import { parseTransactionsQuery } from '@/lib/query/transactions-query';
import { getTransactionsService } from '@/lib/server/services';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (req: NextRequest, account) => {
  const parsed = parseTransactionsQuery(req.nextUrl.searchParams);
  if (!parsed.ok) throw badRequest(parsed.errors);
  return json(await getTransactionsService().plan(account, parsed.query));
});
