/**
 * GET /api/plan?<the query of /api/transactions>: what that search would cost (upstream calls, or
 * served from the cache and how old), and the quota left — so the page can say so before a person
 * spends a call. Costs no upstream call itself.
 */
import type { NextRequest } from 'next/server';
import { badRequest, json } from '@/lib/http/problem';
import { parseQuery } from '@/lib/query/query';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(
  async (req: NextRequest, account, { transactions }) => {
    const parsed = parseQuery(req.nextUrl.searchParams, { alsoAllowed: [], sessionEnterpriseId: account.enterpriseId });
    if (!parsed.ok) throw badRequest(parsed.errors);
    return json(await transactions.plan(account, parsed.query));
  },
  { role: { least: 'support', what: 'Searching the records' }, readsQuery: true },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
