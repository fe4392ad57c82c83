/** GET /api/quota: the account's windows, what is queued, and when the next call can go. No upstream call. */
import { json, withAccount } from '@/lib/http/route';
import { getTransactionsService } from '@/lib/server/services';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, account) => json(await getTransactionsService().quota(account)));
