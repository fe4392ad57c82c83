/**
 * Reads the body of POST /api/exports, before its handler runs (the route's `query` reader): the
 * query's parameters with the upstream's names (parsed by the query codec, lib/query/query.ts, with
 * an export's longer reach: EXPORT_MAX_RANGE_DAYS, read as several upstream windows), plus
 * `columns`, `excel` (lib/csv/csv-format.ts) and `dryRun`. `page` and `page-size` are accepted and
 * ignored: an export reads every page, at the upstream's largest page size.
 *
 * Then `freezeRange` (the export service's) fixes the end: a range that ends in the future ends
 * "now", so the records an export reads cannot move under it while it runs.
 */
import { msg, type Message } from '../i18n/message';
import type { CdrFieldKey } from '../cdr/fields';
import { parseColumns } from '../csv/csv-format';
import { readJsonBody } from '../http/body-limit';
import type { ReaderAccount } from '../query/request';
import {
  EXPORT_MAX_RANGE_DAYS,
  noFieldErrors,
  parseQuery,
  QUERY_PARAMS,
  type FieldErrors,
  type ParseResult,
  type QuerySelection,
} from '../query/query';

export interface ExportRequest {
  query: QuerySelection;
  columns: CdrFieldKey[];
  /** The file written for Excel: digits it would change kept as text (lib/csv/csv-format.ts). */
  excel: boolean;
  dryRun: boolean;
}

export type ExportRequestResult = { ok: true; request: ExportRequest } | { ok: false; errors: FieldErrors };

const KNOWN_KEYS = new Set<string>([...QUERY_PARAMS, 'columns', 'excel', 'dryRun']);

function columnsOf(raw: unknown, errors: FieldErrors): CdrFieldKey[] {
  let text: string | null;
  if (raw === undefined || raw === null) text = null;
  else if (typeof raw === 'string') text = raw;
  else if (Array.isArray(raw) && raw.every((c) => typeof c === 'string')) {
    if (raw.length === 0) {
      errors.columns = msg('query.request.noColumns');
      return [];
    }
    text = raw.join(',');
  } else {
    errors.columns = msg('query.request.columnsType');
    return [];
  }
  const parsed = parseColumns(text);
  if ('error' in parsed) {
    errors.columns = parsed.error;
    return [];
  }
  return parsed.columns;
}

/** Validates the JSON body of POST /api/exports. Each broken rule is reported against its key. */
export function parseExportRequest(body: unknown, sessionEnterpriseId: string | null = null): ExportRequestResult {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      ok: false,
      errors: {
        body: msg('query.request.notObject', { example: EXPORT_BODY_EXAMPLE }),
      },
    };
  }
  const input = body as Record<string, unknown>;
  const errors = noFieldErrors();
  for (const key of Object.keys(input)) {
    if (!KNOWN_KEYS.has(key))
      errors[key] = msg('query.request.unknownKey', { name: key.slice(0, 40), names: QUERY_PARAMS.join(', ') });
  }
  const dryRun = input.dryRun;
  if (dryRun !== undefined && typeof dryRun !== 'boolean')
    errors.dryRun = msg('query.request.boolean', { name: 'dryRun' });
  const excel = input.excel;
  if (excel !== undefined && typeof excel !== 'boolean') errors.excel = msg('query.request.boolean', { name: 'excel' });
  const columns = columnsOf(input.columns, errors);
  const parsed = parseQuery(input, { maxRangeDays: EXPORT_MAX_RANGE_DAYS, sessionEnterpriseId });
  if (!parsed.ok) Object.assign(errors, parsed.errors);
  if (Object.keys(errors).length > 0 || !parsed.ok) return { ok: false, errors };
  const { page: _page, pageSize: _pageSize, ...query } = parsed.query;
  return { ok: true, request: { query, columns, excel: excel === true, dryRun: dryRun === true } };
}

/** The query's parameters and a list of columns fit in far less; a larger body is not an export request. */
const EXPORT_BODY_LIMIT = 16 * 1024;
const EXPORT_BODY_HINT = msg('query.request.bodyHint');
const EXPORT_BODY_EXAMPLE = '{"date-from": "2026-11-01 00:00:00", "date-to": "2026-11-08 00:00:00"}';

/** POST /api/exports's reader: its JSON body (read under the limit), parsed for the signed-in session. */
export async function exportRequestOf(req: Request, account: ReaderAccount): Promise<ParseResult<ExportRequest>> {
  const body = await readJsonBody(req, EXPORT_BODY_LIMIT, EXPORT_BODY_HINT, EXPORT_BODY_EXAMPLE);
  const parsed = parseExportRequest(body, account.enterpriseId);
  return parsed.ok ? { ok: true, query: parsed.request } : parsed;
}

export interface FrozenQuery {
  query: QuerySelection;
  /** The end the request asked for, when it lay in the future (else null). */
  requestedTo: Date | null;
}

/**
 * Ends the range no later than `now` (to the whole second, as the upstream reads date-to). Returns
 * an error message when nothing of the range has happened yet.
 */
export function freezeRange(
  query: QuerySelection,
  now: number,
): { ok: true; frozen: FrozenQuery } | { ok: false; error: Message } {
  const nowSecond = Math.floor(now / 1000) * 1000;
  if (query.to.getTime() <= nowSecond) return { ok: true, frozen: { query, requestedTo: null } };
  if (query.from.getTime() >= nowSecond) {
    return { ok: false, error: msg('query.request.nothingYet') };
  }
  return { ok: true, frozen: { query: { ...query, to: new Date(nowSecond) }, requestedTo: query.to } };
}
