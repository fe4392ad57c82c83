/**
 * GET /api/transactions: the upstream's query, with the upstream's parameter names and result-page
 * shape (plus `_meta`), served through the cache and the governor. Validated before anything is
 * spent (the `query` reader): a bad query is a 400 naming each parameter and costs no upstream call.
 * An answer that did not change since the client's copy (`If-None-Match`) is a 304 without a body.
 * Support and admins only; what leaves passes the role's presenter (JSON and CSV alike), and a
 * search by a full number and a page's CSV go on the audit log.
 */
import type { NextRequest } from 'next/server';
import { jsonResponse } from '@/lib/http/problem';
import { notModified } from '@/lib/search/server';
import { queryBody } from '@/lib/query/query';
import { msg } from '@/lib/i18n/message';
import { maskedRoleChecked, withAccount } from '@/lib/root/with-account';
import { csvPageResponse, PAGE_VARIES_BY, pageRequest } from '@/lib/search/server';
import { headRefused, otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The page's query and CSV choice; for a masked role, what it may not ask refused (403). */
const request = maskedRoleChecked(pageRequest, (page) => page.query);

export const GET = withAccount(
  async (req: NextRequest, account, { transactions, answers, present, team }, _context, { query, csv }) => {
    const page = present(account).page(await transactions.page(account, query, req.signal));
    if (csv) {
      await team.audit(account, 'page-csv', { query: queryBody(query) });
      return csvPageResponse(page, query, csv);
    }
    if (query.filters.da) await team.audit(account, 'number-search', { query: queryBody(query) });
    // Written through the services: they hold the JSON kept with each presented record.
    const etag = answers.etag(page);
    if (notModified(req, etag))
      return new Response(null, { status: 304, headers: { ETag: etag, Vary: PAGE_VARIES_BY } });
    return jsonResponse(answers.json(page), { headers: { ETag: etag, Vary: PAGE_VARIES_BY } });
  },
  {
    refuseCrossSite: true,
    query: request,
    role: { least: 'support', what: msg('team.problems.roleNeeded.whatSearch') },
  },
);

/** Not GET's answer without its body: that could spend a call (lib/http/methods.ts headRefused). */
export const HEAD = withAccount(async () => {
  throw headRefused();
});

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET'], { headRefused: true });
