/**
 * POST /api/transactions/<trx_id>/reveal with `{"reason": "…"}`: the whole record — full numbers
 * and message text — for a support person who says why (at least 10 characters). Each reveal goes on
 * the audit log (person, time, trx_id, reason, and a keyed hash of the number), at most
 * REVEAL_LIMIT_PER_HOUR a person; past it, 429 with Retry-After. An admin sees the record whole
 * anyway; a viewer may not (403). The id, `tz` and body are read before the handler runs
 * (lib/team/requests.ts).
 */
import type { NextRequest } from 'next/server';
import { json } from '@/lib/http/problem';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';
import { revealRequest, type RevealRequest } from '@/lib/team/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ trxId: string }> };

export const POST = withAccount<Context, RevealRequest>(
  async (req: NextRequest, account, { lookup, team }, _context, { trxId, tz, reason }) => {
    let meta: object = {};
    const cdr = await team.reveal(account, trxId, reason, async () => {
      const found = await lookup.lookUp(account, trxId, tz, req.signal);
      meta = found.meta;
      return found.cdr;
    });
    return json({ ...cdr, _meta: { ...meta, revealed: true } });
  },
  {
    refuseCrossSite: true,
    query: revealRequest,
    role: { least: 'support', what: msg('team.problems.roleNeeded.whatReveal') },
  },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['POST']);
