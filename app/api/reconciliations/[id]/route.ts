/**
 * GET /api/reconciliations/<id>: its state, plan, progress and summary.
 * DELETE /api/reconciliations/<id>: forgets it (a running one stops; 204). Another account's is a 404.
 */
import { json } from '@/lib/http/problem';
import { otherMethodsRefused } from '@/lib/http/methods';
import { withAccount } from '@/lib/root/with-account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withAccount<Context>(async (_req, account, { reconciliations }, context) => {
  const { id } = await context.params;
  return json(await reconciliations.get(account, id));
});

export const DELETE = withAccount<Context>(
  async (_req, account, { reconciliations }, context) => {
    const { id } = await context.params;
    await reconciliations.forget(account, id);
    return new Response(null, { status: 204 });
  },
  { refuseCrossSite: true },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, OPTIONS } = otherMethodsRefused(['GET', 'DELETE']);
