import 'server-only';
/**
 * What an export would cost before it is made (POST /api/exports with dryRun): records, upstream
 * calls at the upstream's largest page size minus the pages the dashboard has cached, and when
 * those calls can go. Makes no upstream call: sizes come from the page cache (the search on screen
 * put them there); a window the cache knows nothing of is counted as one call and said to be unknown.
 */
import type { CdrFieldKey } from '../cdr/fields';
import { MAX_PAGE, queryBody } from '../query/query';
import { reachableRecords } from '../query/ranges';
import type { PageCacheStore } from '../store/page-cache';
import { formatWallClock } from '../time/zones';
import { accountSchedule, type ScheduleDeps } from './account-schedule';
import { describeSchedule } from './describe';
import type { FrozenQuery } from './export-request';
import { windowBase } from './job-record';
import type { ExportEstimate, ExportQuery } from '../api/exports';
import { inSortOrder, splitForDepth, splitRange, type TimeRange } from '../query/ranges';

export interface EstimateDeps extends ScheduleDeps {
  cache: PageCacheStore;
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

interface WindowSize {
  records: number | null;
  exact: boolean;
}

export function exportQueryOf(frozen: FrozenQuery): ExportQuery {
  return queryBody(frozen.query) as ExportQuery;
}

export async function estimateExport(deps: EstimateDeps, input: EstimateInput): Promise<ExportEstimate> {
  const now = deps.now();
  const q = input.frozen.query;
  const U = deps.pageSize;
  const jobLike = {
    query: { from: q.from.getTime(), to: q.to.getTime(), requestedTo: null, tz: q.tz, sortOrder: q.sortOrder, filters: q.filters },
    enterpriseId: input.account.enterpriseId,
    pageSize: U,
  };
  const ranges = inSortOrder(splitRange(q.from.getTime(), q.to.getTime()), q.sortOrder);
  const warnings: string[] = [];
  if (ranges.length > 1) warnings.push(`The range is longer than the upstream's 31 days: it will be read as ${ranges.length} consecutive windows and joined into one file.`);
  if (input.frozen.requestedTo) warnings.push(`The range ends in the future: the export reads up to ${formatWallClock(q.to, q.tz)} ${q.tz}, when it is created.`);

  const size = async (r: TimeRange): Promise<WindowSize> => {
    const known = await deps.cache.anyPage(input.account.apiKey, windowBase(jobLike, r).key, now);
    if (known) return { records: known.totalFound, exact: true };
    // The search on screen ran with the unfrozen end; its total is close (the range still grows).
    if (input.frozen.requestedTo && ranges.length === 1) {
      const unfrozen = { ...jobLike, query: { ...jobLike.query, to: input.frozen.requestedTo.getTime() } };
      const near = await deps.cache.anyPage(input.account.apiKey, windowBase(unfrozen, { from: r.from, to: input.frozen.requestedTo.getTime() }).key, now);
      if (near) return { records: near.totalFound, exact: false };
    }
    return { records: null, exact: false };
  };

  let calls = 0;
  let pagesCached = 0;
  let windowsUnknown = 0;
  let records: number | null = 0;
  let allExact = true;
  const windows: ExportEstimate['windows'] = [];
  for (const r of ranges) {
    const s = await size(r);
    let wCalls = 1;
    let wCached = 0;
    if (s.records === null) {
      windowsUnknown += 1;
      records = null;
      allExact = false;
    } else {
      if (records !== null) records += s.records;
      if (!s.exact) allExact = false;
      let pages = Math.ceil(s.records / U);
      if (s.records > reachableRecords(U)) {
        const parts = splitForDepth(r, s.records, reachableRecords(U));
        // Each narrower window's first page is read again to learn its size.
        pages += parts ? parts.length : 0;
        warnings.push(
          parts
            ? `The window ${formatWallClock(new Date(r.from), q.tz)} \u2013 ${formatWallClock(new Date(r.to), q.tz)} holds more than the upstream's ${MAX_PAGE} pages: it will be split into about ${parts.length} narrower windows.`
            : `The window ${formatWallClock(new Date(r.from), q.tz)} \u2013 ${formatWallClock(new Date(r.to), q.tz)} holds more records than the upstream can reach.`,
        );
      }
      if (s.exact) {
        const key = windowBase(jobLike, r).key;
        for (let p = 1; p <= Math.min(pages, MAX_PAGE); p++) {
          const page = await deps.cache.getPage(input.account.apiKey, key, q.sortOrder, p);
          if (page && page.expiresAt > now && page.totalFound === s.records) wCached += 1;
        }
      }
      wCalls = Math.max(0, pages - wCached);
    }
    calls += wCalls;
    pagesCached += wCached;
    windows.push({ dateFrom: formatWallClock(new Date(r.from), q.tz), dateTo: formatWallClock(new Date(r.to), q.tz), records: s.records, calls: wCalls, pagesCached: wCached });
  }

  const schedule = await accountSchedule(deps, input.account.apiKey, calls, input.callsAhead);
  // A size not known yet cannot be promised "right now".
  if (windowsUnknown > 0) schedule.fitsNow = false;
  return {
    records,
    recordsKnown: records === null ? 'unknown' : allExact ? 'exact' : 'approximate',
    calls,
    windowsUnknown,
    pagesCached,
    pageSize: U,
    query: exportQueryOf(input.frozen),
    windows,
    schedule,
    summary: describeSchedule(schedule, windowsUnknown),
    warnings,
    fileName: input.fileName,
    columns: input.columns,
  };
}
