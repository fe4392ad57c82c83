/**
 * GET /api/reconciliations/<id>/rows?outcome=&status=&page=&page-size=&tz=: a page of the answered
 * rows, in the upload's order, filtered by outcome (and a matched record's status), a row's problem
 * in the request's language. The parameters are read and checked before the handler runs
 * (lib/reconcile/route-readers.ts).
 */
import { json } from '@/lib/http/problem';
import { otherMethodsRefused } from '@/lib/http/methods';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { RECONCILE_ROLE, rowsQueryOf, type RowsQuery } from '@/lib/reconcile/server';
import { withAccount } from '@/lib/root/with-account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withAccount<Context, RowsQuery>(
  async (req, account, { reconciliations, present }, context, query) => {
    const { id } = await context.params;
    const masked = present(account).masked;
    return json(await reconciliations.rows(account, id, query, localeOfRequest(req, account), masked));
  },
  { query: rowsQueryOf, role: RECONCILE_ROLE },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
