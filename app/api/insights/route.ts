/**
 * GET /api/insights?<the query's parameters> (the same names as /api/transactions): delivery at a
 * glance over the local history's complete days — counts by status, day, hour, network, sender and
 * API key, exact latency percentiles, parts, prices per currency, DLR error codes — with the
 * coverage said. Spends no upstream call (lib/insights/insights-service.ts).
 */
import { json } from '@/lib/http/problem';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { searchQuery } from '@/lib/query/request';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(
  async (req, account, { insights }, _context, query) => json(await insights.get(account, query, localeOfRequest(req))),
  { query: searchQuery() },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
