/**
 * The account's local history (lib/history):
 * GET /api/history: how it stands, day by day, what it costs and when it will be complete;
 * PUT /api/history with {"enabled", "since", "keepSyncingSignedOut"} (any of them): changes what is
 * wanted (checked before the handler runs: lib/history/settings-request.ts), answers the same shape;
 * DELETE /api/history: forgets it (204). `/api/mirror` answers the same (its name before 2026-12;
 * kept for one release).
 */
import { json } from '@/lib/http/problem';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { historySettingsOf } from '@/lib/history/server';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The state's message is words for a person: said in the request's language.
export const GET = withAccount(async (req, account, { history }) =>
  json(await history.get(account, localeOfRequest(req, account))),
);

const SETTINGS = { least: 'admin', what: msg('team.problems.roleNeeded.whatHistory') } as const;

export const PUT = withAccount(
  async (req, account, { history }, _context, change) =>
    json(await history.put(account, change, localeOfRequest(req, account))),
  { refuseCrossSite: true, query: historySettingsOf, role: SETTINGS },
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
