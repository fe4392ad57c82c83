/**
 * POST /api/transactions/<trx_id>/reveal with `{"reason": "…"}`: the whole record — full numbers
 * and message text — for a support person who says why (at least 10 characters). Each reveal goes on
 * the audit log (person, time, trx_id, reason, and a keyed hash of the number), at most
 * REVEAL_LIMIT_PER_HOUR a person; past it, 429 with Retry-After. An admin sees the record whole
 * anyway; a viewer may not (403).
 */
import type { NextRequest } from 'next/server';
import { normaliseTrxId, trxIdProblem } from '@/lib/lookup';
import { readJsonBody } from '@/lib/http/body-limit';
import { badRequest, json } from '@/lib/http/problem';
import { noFieldErrors, parseZone, unexpectedParams } from '@/lib/query/query';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ trxId: string }> };

const BODY_LIMIT = 4 * 1024;
const BODY_HINT = 'Send only the reason, as JSON.';

export const POST = withAccount<Context>(
  async (req: NextRequest, account, { lookup, team }, context) => {
    const { trxId } = await context.params;
    const errors = noFieldErrors();
    const problem = trxIdProblem(trxId);
    if (problem) errors.trx_id = problem;
    unexpectedParams(req.nextUrl.searchParams, ['tz'], errors);
    const tz = parseZone(req.nextUrl.searchParams.get('tz'), errors);
    if (Object.keys(errors).length > 0) throw badRequest(errors);
    const body = await readJsonBody(req, BODY_LIMIT, BODY_HINT, '{"reason": "Customer called about order ORD-1234"}');
    const reason = body && typeof body === 'object' ? (body as { reason?: unknown }).reason : undefined;
    const id = normaliseTrxId(trxId);
    let meta: object = {};
    const cdr = await team.reveal(account, id, reason, async () => {
      const found = await lookup.lookUp(account, id, tz, req.signal);
      meta = found.meta;
      return found.cdr;
    });
    return json({ ...cdr, _meta: { ...meta, revealed: true } });
  },
  { refuseCrossSite: true, role: { least: 'support', what: 'Revealing a record' } },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['POST']);
