/**
 * GET /api/transactions: the upstream's query, with the upstream's parameter names and result-page
 * shape (plus `_meta`), served through the cache and the governor. Validated before anything is
 * spent: a bad query is a 400 naming each parameter and costs no upstream call.
 */
import type { NextRequest } from 'next/server';
import { badRequest } from '@/lib/http/problem';
import { json, withAccount } from '@/lib/http/route';
import { parseTransactionsQuery } from '@/lib/query/transactions-query';
import { getTransactionsService } from '@/lib/server/services';
import { wantsCsv, csvPageResponse } from '@/lib/server/csv-page';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (req: NextRequest, account) => {
  const parsed = parseTransactionsQuery(req.nextUrl.searchParams);
  if (!parsed.ok) throw badRequest(parsed.errors);
  const page = await getTransactionsService().page(account, parsed.query, req.signal);
  if (wantsCsv(req)) return csvPageResponse(page, parsed.query, req.nextUrl.searchParams.get('columns'));
  return json(page);
}, { refuseCrossSite: true });
