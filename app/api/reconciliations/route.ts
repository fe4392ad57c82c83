/**
 * POST /api/reconciliations: a list (multipart/form-data with `file`, or JSON {"kind", "values"})
 * → 201 {"id", "plan"} with its Location; the rows the local history answers are answered already,
 * and nothing is spent until POST …/start. GET /api/reconciliations: the account's, newest first.
 */
import { json } from '@/lib/http/problem';
import { API_PATHS } from '@/lib/http/paths';
import { otherMethodsRefused } from '@/lib/http/methods';
import { reconcileRequestOf } from '@/lib/reconcile/server';
import { withAccount } from '@/lib/root/with-account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, account, { reconciliations }) =>
  json({ reconciliations: await reconciliations.list(account) }),
);

export const POST = withAccount(
  async (_req, account, { reconciliations }, _context, input) => {
    const created = await reconciliations.create(account, input);
    return json(created, { status: 201, headers: { Location: API_PATHS.reconciliation(created.id) } });
  },
  // The list is read and checked (under its byte limit) before the handler runs.
  { refuseCrossSite: true, query: reconcileRequestOf },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET', 'POST']);
