/**
 * POST /api/audit/page-csv with `{"query": {<the page's query, as POST /api/exports takes it>}, "rows": 25}`:
 * the page says it wrote the rows on screen as CSV (made in the browser from rows it already holds,
 * so no other request would tell), and a team person's download goes on the audit log with its
 * query (numbers masked, a full number as its keyed hash). The body is read before the handler runs
 * (lib/team/requests.ts). A personal session's is not recorded: 204 either way.
 */
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { pageCsvRequest } from '@/lib/team/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = withAccount(
  async (_req, account, { team }, _context, { query, rows }) => {
    await team.audit(account, 'page-csv', { query, detail: `${rows} rows on screen` });
    return new Response(null, { status: 204 });
  },
  {
    refuseCrossSite: true,
    query: pageCsvRequest,
    role: { least: 'support', what: msg('team.problems.roleNeeded.whatPageCsv') },
  },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['POST']);
