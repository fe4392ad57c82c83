/**
 * Reads the body of POST /api/exports: the query's parameters with the upstream's names (validated
 * by the same parser as GET /api/transactions), plus `columns` and `dryRun`. One rule differs: an
 * export may span more than the upstream's 31 days (it is split into windows), up to
 * MAX_EXPORT_RANGE_DAYS. `page` and `page-size` are accepted and ignored: an export reads every
 * page, at the upstream's largest page size.
 *
 * Then `freezeRange` fixes the end: a range that ends in the future ends "now", so the records an
 * export reads cannot move under it while it runs.
 */
import type { CdrFieldKey } from '../cdr/fields';
import { FILTERS } from '../query/filters';
import { MAX_RANGE_MS, parseTransactionsQuery, type FieldErrors, type TransactionsQuery } from '../query/transactions-query';
import { formatWallClock, parseWallClock, ZONES, type Zone } from '../time/zones';
import { parseColumns } from './csv-format';

export const MAX_EXPORT_RANGE_DAYS = 366;
const DAY_MS = 24 * 3600 * 1000;
export const MAX_EXPORT_RANGE_MS = MAX_EXPORT_RANGE_DAYS * DAY_MS;

/** A query without page and page size: an export reads all of it. */
export type ExportableQuery = Omit<TransactionsQuery, 'page' | 'pageSize'>;

export interface ExportRequest {
  query: ExportableQuery;
  columns: CdrFieldKey[];
  dryRun: boolean;
}

export type ExportRequestResult = { ok: true; request: ExportRequest } | { ok: false; errors: FieldErrors };

const QUERY_KEYS = ['date-from', 'date-to', 'tz', 'sort-order', ...FILTERS.map((f) => f.param)] as const;
const IGNORED_KEYS = ['page', 'page-size'] as const;
const KNOWN_KEYS = new Set<string>([...QUERY_KEYS, ...IGNORED_KEYS, 'columns', 'dryRun']);

/** The range as instants when both dates read and it is longer than the upstream allows. */
function longRange(params: Map<string, string>): { from: Date; to: Date; tz: Zone } | null {
  const tzRaw = (params.get('tz') ?? 'UTC').toUpperCase() || 'UTC';
  if (!(ZONES as readonly string[]).includes(tzRaw)) return null;
  const tz = tzRaw as Zone;
  const from = parseWallClock(params.get('date-from') ?? '', tz);
  const to = parseWallClock(params.get('date-to') ?? '', tz);
  if (!from || !to || to.getTime() - from.getTime() <= MAX_RANGE_MS) return null;
  return { from, to, tz };
}

function parseQuery(params: Map<string, string>): { ok: true; query: ExportableQuery } | { ok: false; errors: FieldErrors } {
  const source = (override?: Record<string, string>) => ({ get: (name: string) => override?.[name] ?? params.get(name) ?? null });
  const first = parseTransactionsQuery(source());
  if (first.ok) return { ok: true, query: first.query };

  const long = first.errors['date-to'] ? longRange(params) : null;
  if (!long) return first;
  // The only objection may be the upstream's 31 days, which exports lift: validate everything else
  // with a one-day range, then put the real end back.
  const retry = parseTransactionsQuery(source({ 'date-to': formatWallClock(new Date(long.from.getTime() + DAY_MS), long.tz) }));
  if (!retry.ok) return retry;
  if (long.to.getTime() - long.from.getTime() > MAX_EXPORT_RANGE_MS) {
    return {
      ok: false,
      errors: {
        'date-to': `An export may span at most ${MAX_EXPORT_RANGE_DAYS} days (longer ranges than the upstream's 31 days are split into windows automatically); shorten the range.`,
      },
    };
  }
  return { ok: true, query: { ...retry.query, to: long.to, dateTo: formatWallClock(long.to, long.tz) } };
}

function columnsOf(raw: unknown, errors: FieldErrors): CdrFieldKey[] {
  if (raw === undefined || raw === null) return parseColumnsOrAll('', errors);
  if (typeof raw === 'string') return parseColumnsOrAll(raw, errors);
  if (Array.isArray(raw) && raw.every((c) => typeof c === 'string')) {
    if (raw.length === 0) {
      errors.columns = 'Choose at least one column, or leave columns out for all of them.';
      return [];
    }
    return parseColumnsOrAll((raw as string[]).join(','), errors);
  }
  errors.columns = 'columns must be an array of field names (e.g. ["trx_id", "date_received"]) or a comma-separated string.';
  return [];
}

function parseColumnsOrAll(raw: string, errors: FieldErrors): CdrFieldKey[] {
  const parsed = parseColumns(raw);
  if ('error' in parsed) {
    errors.columns = parsed.error;
    return [];
  }
  return parsed.columns;
}

/** Validates the JSON body of POST /api/exports. Each broken rule is reported against its key. */
export function parseExportRequest(body: unknown): ExportRequestResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, errors: { body: 'The body must be a JSON object with the query\u2019s parameters, e.g. {"date-from": "2026-11-01 00:00:00", "date-to": "2026-11-08 00:00:00"}.' } };
  }
  const input = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  const params = new Map<string, string>();
  for (const [key, value] of Object.entries(input)) {
    if (!KNOWN_KEYS.has(key)) {
      errors[key] = `Unknown parameter "${key}". Use the upstream's names: ${QUERY_KEYS.join(', ')}, plus columns and dryRun.`;
      continue;
    }
    if (key === 'columns' || key === 'dryRun' || (IGNORED_KEYS as readonly string[]).includes(key)) continue;
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'number') params.set(key, String(value));
    else errors[key] = `${key} must be a string.`;
  }
  const dryRun = input.dryRun;
  if (dryRun !== undefined && typeof dryRun !== 'boolean') errors.dryRun = 'dryRun must be true or false.';
  const columns = columnsOf(input.columns, errors);
  const parsed = parseQuery(params);
  if (!parsed.ok) Object.assign(errors, parsed.errors);
  if (Object.keys(errors).length > 0 || !parsed.ok) return { ok: false, errors };
  return { ok: true, request: { query: parsed.query, columns, dryRun: dryRun === true } };
}

export interface FrozenQuery {
  query: ExportableQuery;
  /** The end the request asked for, when it lay in the future (else null). */
  requestedTo: Date | null;
}

/**
 * Ends the range no later than `now` (to the whole second, as the upstream reads date-to). Returns
 * an error message when nothing of the range has happened yet.
 */
export function freezeRange(query: ExportableQuery, now: number): { ok: true; frozen: FrozenQuery } | { ok: false; error: string } {
  const nowSecond = Math.floor(now / 1000) * 1000;
  if (query.to.getTime() <= nowSecond) return { ok: true, frozen: { query, requestedTo: null } };
  if (query.from.getTime() >= nowSecond) {
    return { ok: false, error: 'The range starts in the future: there is nothing to export yet.' };
  }
  const to = new Date(nowSecond);
  return { ok: true, frozen: { query: { ...query, to, dateTo: formatWallClock(to, query.tz) }, requestedTo: query.to } };
}
