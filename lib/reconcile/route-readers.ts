import 'server-only';
/**
 * What each reconciliations route reads, as the route wrapper takes it (withAccount `query`): read
 * and checked before the handler runs, so the service gets only parsed input and a refusal is one
 * problem in the catalogue's words (400 naming each parameter; 413 and 415 for the upload).
 */
import { badRequest } from '../http/problem';
import type { ParseResult } from '../query/query';
import { readReconcileRequest, type ReconcileInput } from './reconcile-request';
import { readFileQuery, readRowsQuery, type Reading } from './rows-query';

function routeReading<T>(reading: Reading<T>): ParseResult<T> {
  if (!reading.ok) throw badRequest(reading.errors);
  return { ok: true, query: reading.value };
}

/** POST /api/reconciliations: the list and its settings, read under the upload's byte limit. */
export async function reconcileRequestOf(req: Request): Promise<ParseResult<ReconcileInput>> {
  return { ok: true, query: await readReconcileRequest(req) };
}

/** GET /api/reconciliations/<id>/rows. */
export const rowsQueryOf = (req: Request) => routeReading(readRowsQuery(new URL(req.url).searchParams));

/** GET /api/reconciliations/<id>/file. */
export const fileQueryOf = (req: Request) => routeReading(readFileQuery(new URL(req.url).searchParams));
