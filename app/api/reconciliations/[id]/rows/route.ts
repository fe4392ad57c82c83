/**
 * GET /api/reconciliations/<id>/rows?outcome=&status=&page=&page-size=&tz=: a page of the answered
 * rows, in the upload's order, filtered by outcome (and a matched record's status).
 */
import type { NextRequest } from 'next/server';
import { badRequest, json } from '@/lib/http/problem';
import { otherMethodsRefused } from '@/lib/http/methods';
import { readRowsQuery } from '@/lib/reconcile/server';
import { withAccount } from '@/lib/root/with-account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withAccount<Context>(async (req: NextRequest, account, { reconciliations }, context) => {
  const { id } = await context.params;
  const query = readRowsQuery(req.nextUrl.searchParams);
  if (!query.ok) throw badRequest(query.errors);
  return json(await reconciliations.rows(account, id, query.value));
});

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
