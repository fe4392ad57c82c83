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

/**
 * A request's query, in the codec's body form (lib/query `queryBody`: what a search, a page's CSV or
 * an export asked), as the audit log keeps it: written as a query string for a person to read.
 */
export function auditedQuery(body: Readonly<Record<string, unknown>> | null): AuditedQuery {
  if (!body) return { query: null, numberHash: null };
  const kept = Object.entries(body).flatMap(([k, v]): [string, string][] =>
    !NOT_THE_QUERY.has(k) && (typeof v === 'string' || typeof v === 'number') && v !== '' ? [[k, String(v)]] : [],
  );
  const number = kept.find(([k]) => k === 'da')?.[1];
  const text = new URLSearchParams(
    kept.map(([k, v]) => [k, NOT_A_NUMBER.has(k) ? v : v.replace(NUMBER_RUN, (n) => maskNumber(n))]),
  ).toString();
  return { query: text === '' ? null : text, numberHash: number ? numberHash(number) : null };
}
