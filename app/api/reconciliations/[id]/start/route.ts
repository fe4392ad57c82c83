/**
 * POST /api/reconciliations/<id>/start: runs a planned reconciliation as a background job (its plan
 * made again first: what the local history completed since is free). 200 with the reconciliation.
 */
import { json } from '@/lib/http/problem';
import { otherMethodsRefused } from '@/lib/http/methods';
import { withAccount } from '@/lib/root/with-account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const POST = withAccount<Context>(
  async (_req, account, { reconciliations }, context) => {
    const { id } = await context.params;
    return json(await reconciliations.start(account, id));
  },
  { refuseCrossSite: true },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['POST']);
