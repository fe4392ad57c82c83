import 'server-only';
/**
 * What an export would cost before it is made (POST /api/exports with dryRun): records, upstream
 * calls at the upstream's largest page size minus the pages the dashboard has cached and the parts
 * the local history holds, and when those calls can go. Makes no upstream call: sizes come from
 * the local history (exact) and the page cache (the search on screen put them there); a part
 * neither knows is counted as one call and said to be unknown.
 */
import { msg, type Message } from '../i18n/message';
import type { CdrFieldKey } from '../cdr/fields';
import { MAX_PAGE, queryBody, SEARCH_MAX_RANGE_DAYS } from '../query/query';
import { storedQueryOf } from '../query/stored';
import { reachableRecords } from '../query/ranges';
import type { PageCacheStore } from '../cache/server';
import { formatWallClock } from '../time/zones';
import { accountSchedule, type ScheduleDeps } from './account-schedule';
import { describeSchedule } from './describe';
import type { FrozenQuery } from './export-request';
import { windowBase } from './job-record';
import { planFor, nothingHeldMessage, searchOfWindow, uncoveredWarning, type LocalReadDeps } from './local-windows';
import type { ExportEstimate, ExportQuery } from './api';
import { inSortOrder, splitForDepth, splitRange, type TimeRange } from '../query/ranges';

export interface EstimateDeps extends ScheduleDeps {
  cache: PageCacheStore;
  /** What the local history holds is read from it: no call. */
  local: LocalReadDeps;
  pageSize: number;
}

export interface EstimateInput {
  account: { apiKey: string; enterpriseId: string | null };
  frozen: FrozenQuery;
  columns: CdrFieldKey[];
  fileName: string;
  /** Calls of the account's earlier exports still to make. */
  callsAhead: number;
}

export function exportQueryOf(frozen: FrozenQuery): ExportQuery {
  return queryBody(frozen.query);
}

export async function estimateExport(deps: EstimateDeps, input: EstimateInput): Promise<ExportEstimate> {
  const q = input.frozen.query;
  const U = deps.pageSize;
  const jobLike = {
    account: input.account.apiKey,
    query: storedQueryOf(q),
    enterpriseId: input.account.enterpriseId,
    pageSize: U,
  };
  const ranges = inSortOrder(splitRange(q.from.getTime(), q.to.getTime()), q.sortOrder);
  const warnings: Message[] = [];
  if (input.frozen.requestedTo)
    warnings.push(msg('exports.warning.futureEstimate', { at: `${formatWallClock(q.to, q.tz)} ${q.tz}` }));

  const totals = {
    calls: 0,
    pagesCached: 0,
    windowsUnknown: 0,
    records: 0 as number | null,
    exact: true,
    local: false,
  };
  const windows: ExportEstimate['windows'] = [];
  const addWindow = (r: TimeRange, size: PieceEstimate) => {
    totals.calls += size.calls;
    totals.pagesCached += size.pagesCached;
    totals.windowsUnknown += size.unknown;
    totals.records = totals.records === null || size.records === null ? null : totals.records + size.records;
    if (!size.exact) totals.exact = false;
    windows.push({
      dateFrom: formatWallClock(new Date(r.from), q.tz),
      dateTo: formatWallClock(new Date(r.to), q.tz),
      records: size.records,
      calls: size.calls,
      pagesCached: size.pagesCached,
    });
  };

  const whole = await planFor(deps.local, jobLike, { from: jobLike.query.from, to: jobLike.query.to });
  if (whole.kind === 'local-only') {
    // Free text, local filters, another order: one local read over what the copy holds.
    const { ranges: held, gaps } = whole;
    if (held.length === 0) warnings.push(nothingHeldMessage(jobLike));
    else if (gaps.length > 0) warnings.push(uncoveredWarning(gaps, jobLike));
    const records = held.length === 0 ? 0 : await deps.local.history.count(searchOfWindow(jobLike, held));
    totals.local = held.length > 0;
    addWindow(
      { from: jobLike.query.from, to: jobLike.query.to },
      { records, exact: true, calls: 0, pagesCached: 0, unknown: 0 },
    );
  } else {
    if (ranges.length > 1)
      warnings.push(msg('exports.warning.longRangeEstimate', { days: SEARCH_MAX_RANGE_DAYS, windows: ranges.length }));
    for (const r of ranges) {
      const plan = await planFor(deps.local, jobLike, r);
      const pieces = plan.kind === 'upstream' ? [plan.piece] : plan.kind === 'local-only' ? [] : plan.pieces;
      const parts: PieceEstimate[] = [];
      for (const p of pieces) {
        if (p.kind === 'local') {
          parts.push({
            records: await deps.local.history.count(searchOfWindow(jobLike, [p])),
            exact: true,
            calls: 0,
            pagesCached: 0,
            unknown: 0,
          });
          totals.local = true;
        } else
          parts.push(
            await upstreamPiece(deps, input, jobLike, p, pieces.length === 1 && ranges.length === 1, warnings),
          );
      }
      addWindow(r, sumOf(parts));
    }
  }

  const schedule = await accountSchedule(deps, input.account.apiKey, totals.calls, input.callsAhead);
  // A size not known yet cannot be promised "right now".
  if (totals.windowsUnknown > 0) schedule.fitsNow = false;
  return {
    records: totals.records,
    recordsKnown: totals.records === null ? 'unknown' : totals.exact ? 'exact' : 'approximate',
    calls: totals.calls,
    windowsUnknown: totals.windowsUnknown,
    pagesCached: totals.pagesCached,
    pageSize: U,
    query: exportQueryOf(input.frozen),
    windows,
    schedule,
    summary: describeSchedule(schedule, totals.windowsUnknown, totals),
    warnings,
    fileName: input.fileName,
    columns: input.columns,
  };
}

interface PieceEstimate {
  records: number | null;
  exact: boolean;
  calls: number;
  pagesCached: number;
  /** Windows whose size is not known (each counted as one call). */
  unknown: number;
}

function sumOf(parts: readonly PieceEstimate[]): PieceEstimate {
  return parts.reduce<PieceEstimate>(
    (a, p) => ({
      records: a.records === null || p.records === null ? null : a.records + p.records,
      exact: a.exact && p.exact,
      calls: a.calls + p.calls,
      pagesCached: a.pagesCached + p.pagesCached,
      unknown: a.unknown + p.unknown,
    }),
    { records: 0, exact: true, calls: 0, pagesCached: 0, unknown: 0 },
  );
}

type JobLike = Parameters<typeof windowBase>[0];

/**
 * A part of the range read upstream: its size from the page cache (the search on screen put it
 * there), its calls at the upstream's page size less the pages cached; unknown: one call.
 * `wholeRange`: the part is the export's whole range, so the search on screen (which ran with the
 * unfrozen end) tells a close size.
 */
async function upstreamPiece(
  deps: EstimateDeps,
  input: EstimateInput,
  jobLike: JobLike,
  r: TimeRange,
  wholeRange: boolean,
  warnings: Message[],
): Promise<PieceEstimate> {
  const now = deps.now();
  const q = input.frozen.query;
  const U = deps.pageSize;
  let records: number | null = null;
  let exact = false;
  const known = await deps.cache.anyPage(input.account.apiKey, windowBase(jobLike, r).key, now);
  if (known) [records, exact] = [known.totalFound, true];
  else if (input.frozen.requestedTo && wholeRange) {
    const unfrozen = { ...jobLike, query: { ...jobLike.query, to: input.frozen.requestedTo.getTime() } };
    const near = await deps.cache.anyPage(
      input.account.apiKey,
      windowBase(unfrozen, { from: r.from, to: input.frozen.requestedTo.getTime() }).key,
      now,
    );
    if (near) records = near.totalFound;
  }
  if (records === null) return { records: null, exact: false, calls: 1, pagesCached: 0, unknown: 1 };
  let pages = Math.ceil(records / U);
  if (records > reachableRecords(U)) {
    const parts = splitForDepth(r, records, reachableRecords(U));
    // Each narrower window's first page is read again to learn its size.
    pages += parts ? parts.length : 0;
    const label = `${formatWallClock(new Date(r.from), q.tz)} \u2013 ${formatWallClock(new Date(r.to), q.tz)}`;
    warnings.push(
      parts
        ? msg('exports.warning.deepWindow', { window: label, pages: MAX_PAGE, parts: parts.length })
        : msg('exports.warning.unreachable', { window: label }),
    );
  }
  let cached = 0;
  if (exact) {
    const key = windowBase(jobLike, r).key;
    for (let p = 1; p <= Math.min(pages, MAX_PAGE); p++) {
      const page = await deps.cache.getPage(input.account.apiKey, key, q.sortOrder, p);
      if (page && page.expiresAt > now && page.totalFound === records) cached += 1;
    }
  }
  return { records, exact, calls: Math.max(0, pages - cached), pagesCached: cached, unknown: 0 };
}
