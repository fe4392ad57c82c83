/**
 * The parameters of GET /api/reconciliations/<id>/rows and …/file, read and checked: a wrong or
 * unknown one is named in a 400 rather than ignored (a misspelt `outcome` would show every row).
 */
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

export type Reading<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

function wholeNumber(raw: string | null, name: string, max: number, fallback: number, errors: FieldErrors): number {
  if (raw === null || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > max) {
    errors[name] = `${name} must be a whole number from 1 to ${max}.`;
    return fallback;
  }
  return Number(raw);
}

export function readRowsQuery(params: URLSearchParams): Reading<RowsQuery> {
  const errors: FieldErrors = {};
  unexpectedParams(params, ['outcome', 'status', 'page', 'page-size', 'tz'], errors);
  const outcome = params.get('outcome');
  const status = params.get('status');
  if (outcome && !(OUTCOMES as readonly string[]).includes(outcome) && outcome !== 'pending')
    errors.outcome = `outcome must be one of ${[...OUTCOMES, 'pending'].join(', ')}.`;
  if (status && !(DELIVERY_STATUS_VALUES as readonly string[]).includes(status))
    errors.status = `status must be one of ${DELIVERY_STATUS_VALUES.join(', ')}.`;
  const page = wholeNumber(params.get('page'), 'page', 1_000_000, 1, errors);
  const pageSize = wholeNumber(params.get('page-size'), 'page-size', MAX_ROWS_PAGE_SIZE, ROWS_PAGE_SIZE, errors);
  const tz = params.has('tz') ? parseZone(params.get('tz'), errors) : null;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { outcome: (outcome || null) as RowsQuery['outcome'], status: status || null, page, pageSize, tz },
  };
}

export function readFileQuery(params: URLSearchParams): Reading<{ excel: boolean; tz: Zone | null }> {
  const errors: FieldErrors = {};
  unexpectedParams(params, ['excel', 'tz'], errors);
  const excel = params.get('excel');
  if (excel !== null && excel !== 'true' && excel !== 'false') errors.excel = 'excel must be true or false.';
  const tz = params.has('tz') ? parseZone(params.get('tz'), errors) : null;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { excel: excel === 'true', tz } };
}
