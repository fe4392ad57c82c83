/**
 * GET /api/plan?<the query of /api/transactions>: what that search would cost (upstream calls, or
 * served from the cache and how old), and the quota left — so the page can say so before a person
 * spends a call. Costs no upstream call itself.
 */
import { json } from '@/lib/http/problem';
import { searchQuery } from '@/lib/query/request';
import { msg } from '@/lib/i18n/message';
import { maskedRoleChecked, withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The search query in the URL; for a masked role, what it may not ask refused (403). */
const searchRequest = maskedRoleChecked(searchQuery(), (query) => query);

export const GET = withAccount(
  async (_req, account, { transactions }, _context, query) => json(await transactions.plan(account, query)),
  {
    query: searchRequest,
    role: { least: 'support', what: msg('team.problems.roleNeeded.whatSearch') },
  },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
