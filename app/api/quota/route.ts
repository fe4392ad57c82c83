/** GET /api/quota: the account's windows, what is queued, and when the next call can go. No upstream call. */
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = withAccount(async (_req, account, { transactions }) => json(await transactions.quota(account)));

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
