/**
 * The account's local history (lib/history):
 * GET /api/history: how it stands, day by day, what it costs and when it will be complete;
 * PUT /api/history with {"enabled", "since", "keepSyncingSignedOut"} (any of them): changes what is
 * wanted, answers the same shape; DELETE /api/history: forgets it (204). `/api/mirror` answers the same (its name before 2026-12; kept for one release)..
 */
import type { NextRequest } from 'next/server';
import { readJsonBody } from '@/lib/http/body-limit';
import { json } from '@/lib/http/problem';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const BODY_LIMIT = 4 * 1024;
const BODY_HINT = 'Send only enabled, since and keepSyncingSignedOut as JSON.';

export const GET = withAccount(async (_req, account, { history }) => json(await history.get(account)));

const SETTINGS = { least: 'admin', what: 'Changing the local history\u2019s settings' } as const;

export const PUT = withAccount(
  async (req: NextRequest, account, { history }) => {
    const body = await readJsonBody(req, BODY_LIMIT, BODY_HINT, '{"enabled": true, "since": "2026-10-01"}');
    return json(await history.put(account, body));
  },
  { refuseCrossSite: true, role: SETTINGS },
);

export const DELETE = withAccount(
  async (_req, account, { history }) => {
    await history.delete(account);
    return new Response(null, { status: 204 });
  },
  { refuseCrossSite: true, role: SETTINGS },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PATCH, OPTIONS } = otherMethodsRefused(['GET', 'PUT', 'DELETE']);
