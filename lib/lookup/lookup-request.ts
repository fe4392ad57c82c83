import 'server-only';
/**
 * What GET /api/transactions/<trx_id> asks for, read before anything is spent (the route's `query`
 * reader, lib/root/with-account.ts): the id in its path, checked and written as the records write
 * it, and `tz`, once — a misspelt or repeated parameter is said, not ignored, as on the list's route.
 */
import { noFieldErrors, parseZone, unexpectedParams, type ParseResult } from '../query/query';
import type { Zone } from '../time/zones';
import { normaliseTrxId, trxIdProblem } from './trx-id';

export interface LookupRequest {
  trxId: string;
  tz: Zone;
}

export async function lookupRequest(
  req: Request,
  _account: unknown,
  _services: unknown,
  context: { params: Promise<{ trxId: string }> },
): Promise<ParseResult<LookupRequest>> {
  const { trxId } = await context.params;
  const errors = noFieldErrors();
  const problem = trxIdProblem(trxId);
  if (problem) errors.trx_id = problem;
  const params = new URL(req.url).searchParams;
  unexpectedParams(params, ['tz'], errors);
  const tz = parseZone(params.get('tz'), errors);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, query: { trxId: normaliseTrxId(trxId), tz } };
}
