/**
 * GET /api/insights?<the query's parameters> (the same names as /api/transactions): delivery at a
 * glance over the local history's complete days — counts by status, day, hour, network, sender and
 * API key, exact latency percentiles, parts, prices per currency, DLR error codes — with the
 * coverage said. Spends no upstream call (lib/insights/insights-service.ts).
 */
import type { NextRequest } from 'next/server';
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(
  async (req: NextRequest, account, { insights, present, team }) => {
    const answer = present(account).insights(await insights.get(account, req.nextUrl.searchParams));
    if (req.nextUrl.searchParams.get('da'))
      await team.audit(account, 'number-search', { query: req.nextUrl.searchParams });
    return json(answer);
  },
  { readsQuery: true },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
