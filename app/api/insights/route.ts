/**
 * GET /api/insights?<the query's parameters> (the same names as /api/transactions): delivery at a
 * glance over the local history's complete days — counts by status, day, hour, network, sender and
 * API key, exact latency percentiles, parts, prices per currency, DLR error codes — with the
 * coverage said. Spends no upstream call (lib/insights/insights-service.ts).
 */
import { json } from '@/lib/http/problem';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { searchQuery } from '@/lib/query/request';
import { queryBody } from '@/lib/query/query';
import { maskedRoleChecked, withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The search query in the URL; for a masked role, what it may not ask refused (403). */
const searchRequest = maskedRoleChecked(searchQuery(), (query) => query);

export const GET = withAccount(
  async (req, account, { insights, present, team }, _context, query) => {
    const answer = present(account).insights(await insights.get(account, query, localeOfRequest(req, account)));
    if (query.filters.da) await team.audit(account, 'number-search', { query: queryBody(query) });
    return json(answer);
  },
  { query: searchRequest },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
