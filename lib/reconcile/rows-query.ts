/**
 * The parameters of GET /api/reconciliations/<id>/rows and …/file, read (for the routes'
 * readers, ./route-readers.ts) and written (by the page) in this one file: a wrong or unknown one is named
 * in a 400 rather than ignored (a misspelt `outcome` would show every row).
 */
import { msg, type Words } from '../i18n/message';
import { parseZone, unexpectedParams, type FieldErrors } from '../query/query';
import { DELIVERY_STATUS_VALUES } from '../cdr/status';
import type { Zone } from '../time/zones';
import { OUTCOMES, type Outcome } from './api';

export const ROWS_PAGE_SIZE = 100;
export const MAX_ROWS_PAGE_SIZE = 500;

export interface RowsQuery {
  outcome: Outcome | 'pending' | null;
  status: string | null;
  page: number;
  pageSize: number;
  tz: Zone | null;
}

export type Reading<T> = { ok: true; value: T } | { ok: false; errors: Record<string, Words> };

function wholeNumber(
  raw: string | null,
  name: string,
  max: number,
  fallback: number,
  errors: Record<string, Words>,
): number {
  if (raw === null || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > max) {
    errors[name] = msg('reconcile.problems.wholeNumber', { name, max: String(max) });
    return fallback;
  }
  return Number(raw);
}

export function readRowsQuery(params: URLSearchParams): Reading<RowsQuery> {
  const said: FieldErrors = {};
  unexpectedParams(params, ['outcome', 'status', 'page', 'page-size', 'tz'], said);
  const errors: Record<string, Words> = said;
  const outcome = params.get('outcome');
  const status = params.get('status');
  if (outcome && !(OUTCOMES as readonly string[]).includes(outcome) && outcome !== 'pending')
    errors.outcome = msg('reconcile.problems.outcome', { outcomes: [...OUTCOMES, 'pending'].join(', ') });
  if (status && !(DELIVERY_STATUS_VALUES as readonly string[]).includes(status))
    errors.status = msg('reconcile.problems.status', { statuses: DELIVERY_STATUS_VALUES.join(', ') });
  const page = wholeNumber(params.get('page'), 'page', 1_000_000, 1, errors);
  const pageSize = wholeNumber(params.get('page-size'), 'page-size', MAX_ROWS_PAGE_SIZE, ROWS_PAGE_SIZE, errors);
  const tz = params.has('tz') ? parseZone(params.get('tz'), said) : null;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { outcome: (outcome || null) as RowsQuery['outcome'], status: status || null, page, pageSize, tz },
  };
}

export interface FileQuery {
  excel: boolean;
  tz: Zone | null;
}

export function readFileQuery(params: URLSearchParams): Reading<FileQuery> {
  const said: FieldErrors = {};
  unexpectedParams(params, ['excel', 'tz'], said);
  const errors: Record<string, Words> = said;
  const excel = params.get('excel');
  if (excel !== null && excel !== 'true' && excel !== 'false') errors.excel = msg('reconcile.problems.excel');
  const tz = params.has('tz') ? parseZone(params.get('tz'), said) : null;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { excel: excel === 'true', tz } };
}

/** The rows endpoint's parameters for a view of the page, as readRowsQuery reads them back. */
export function rowsSearch(view: Pick<RowsQuery, 'outcome' | 'status' | 'page'>): string {
  const params = new URLSearchParams();
  if (view.outcome) params.set('outcome', view.outcome);
  if (view.status) params.set('status', view.status);
  if (view.page > 1) params.set('page', String(view.page));
  const search = params.toString();
  return search ? `?${search}` : '';
}
