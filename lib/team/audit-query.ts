import 'server-only';
/**
 * A query as the audit log keeps it: its parameters as a query string, every number in it masked by
 * the one rule (./masking.ts) — the log holds no phone number in clear — and a keyed hash of the
 * full number it searched for (`da`), so an admin can find it by typing the number.
 */
import { maskNumber } from './masking';
import { numberHash } from './number-hash';

/** Parameters that say nothing about the query itself (how it is shown, paged or written). */
const NOT_THE_QUERY = new Set(['row', 'columns', 'excel', 'dryRun']);
/** Parameters whose digits are never a phone number (times, prices, pages). */
const NOT_A_NUMBER = new Set(['date-from', 'date-to', 'price-min', 'price-max', 'latency-min', 'page', 'page-size']);
/** A run of digits long enough to be a phone number (the logger's rule, lib/log.ts). */
const NUMBER_RUN = /\+?\d{7,}/g;

export interface AuditedQuery {
  /** The query string, numbers masked; null for none. */
  query: string | null;
  /** The keyed hash of the full number searched for, if any. */
  numberHash: string | null;
}

/** The query of a request (its URL's parameters, or an export's JSON body) as the audit log keeps it. */
export function auditedQuery(params: URLSearchParams | Record<string, unknown> | null): AuditedQuery {
  if (!params) return { query: null, numberHash: null };
  const entries: [string, string][] =
    params instanceof URLSearchParams
      ? [...params.entries()]
      : Object.entries(params).flatMap(([k, v]) =>
          typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? [[k, String(v)]] : [],
        );
  const kept = entries.filter(([k, v]) => !NOT_THE_QUERY.has(k) && v !== '');
  const number = kept.find(([k]) => k === 'da')?.[1];
  const text = new URLSearchParams(
    kept.map(([k, v]) => [k, NOT_A_NUMBER.has(k) ? v : v.replace(NUMBER_RUN, (n) => maskNumber(n))]),
  ).toString();
  return { query: text === '' ? null : text, numberHash: number ? numberHash(number) : null };
}
