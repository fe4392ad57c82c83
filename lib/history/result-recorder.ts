import 'server-only';
/**
 * Complete results of the page cache, kept as local history: once every page of a settled query is
 * stored (a small result read page by page, an export's window), its records are copied into the
 * local history with the range and filters they complete. A narrower query — a sub-range, an added
 * filter, the other sort — is then answered from them with no call.
 */
import { log } from '../log';
import { MAX_PAGE, type SortOrder } from '../query/query';
import { pageIsWhole } from '../query/ranges';
import type { UpstreamBase } from '../query/wire';
import type { HistoryStore, HistoryRecordRow } from './store/history-store';
import type { PageCacheStore } from '../cache/server';
import type { HistoryIndex } from './history-index';
import { historyRow } from '../cdr/record-columns';
import { startOf } from './days';
import { firstKeptDay } from './retention';
import { scopeOf } from './scope';

export interface ResultRecorderDeps {
  cache: PageCacheStore;
  history: HistoryStore;
  index: HistoryIndex;
  /** When a range ending at `to` settles (its records no longer change): CachePolicy.settlesAt. */
  settlesAt: (to: number) => number;
  /** The page size of a base that names none. */
  pageSize: number;
  /** HISTORY_MAX_DAYS: with the start day, where the local history begins (./retention.ts). */
  maxDays: number;
  now: () => number;
  /** Waits while work a person is waiting for runs (lib/background/foreground-work.ts); absent: never waits. */
  foregroundIdle?: () => Promise<void>;
}

export class ResultRecorder {
  /** Results being copied now, so a burst of pages does not copy one twice. */
  private readonly busy = new Set<string>();

  constructor(private readonly deps: ResultRecorderDeps) {}

  /** After a page of `base` was stored: copies the result when it is now settled and complete. Never throws. */
  note(
    account: { apiKey: string; enterpriseId: string | null },
    base: UpstreamBase,
    sortOrder: SortOrder,
    totalFound: number,
  ): void {
    void this.record(account, base, sortOrder, totalFound).catch((err: unknown) =>
      log.warn('history.result_failed', { error: err instanceof Error ? err.message : String(err) }),
    );
  }

  private async record(
    account: { apiKey: string; enterpriseId: string | null },
    base: UpstreamBase,
    sortOrder: SortOrder,
    totalFound: number,
  ): Promise<void> {
    const { cache, history, index } = this.deps;
    // The size its pages were read at: an export's window is read at the background page size.
    const asked = Number(base.params['page-size']);
    const pageSize = Number.isSafeInteger(asked) && asked >= 1 ? asked : this.deps.pageSize;
    const { from, to } = base;
    // Only pages read once the range had settled: one read before may hold a status that changed
    // since (the count stays the same once the range has ended), and a copied record is kept.
    const settled = this.deps.settlesAt(to);
    if (this.deps.now() < settled) return;
    const pages = Math.max(1, Math.ceil(totalFound / pageSize));
    if (pages > MAX_PAGE) return; // deeper than the upstream reaches: never complete
    if ((await cache.countPages(account.apiKey, base.key, sortOrder, totalFound, settled)) < pages) return;
    const scope = scopeOf(account).key;
    // A result that starts before the first day the local history keeps would be deleted at the
    // next retention pass (and a large export's, copied only to be deleted, holds the writer).
    const settings = await history.getSettings(scope);
    if (from < startOf(firstKeptDay(settings?.sinceDay ?? null, this.deps.now(), this.deps.maxDays))) return;
    const busyKey = `${scope}\u0000${base.key}`;
    if (this.busy.has(busyKey)) return;
    if ((await history.results(scope)).some((r) => r.key === base.key)) return;
    this.busy.add(busyKey);
    try {
      // Page by page: an export's window can hold a hundred thousand records, never all in memory.
      // Each page must hold what its count promises (pages stored before that rule was kept are
      // checked here too): a result missing a record is not one.
      let records = 0;
      for (let p = 1; p <= pages; p++) {
        // Nobody waits for this copy: an export's file, for example, goes first.
        await this.deps.foregroundIdle?.();
        const page = await cache.getPage(account.apiKey, base.key, sortOrder, p);
        // Replaced meanwhile, or (a page the count missed) read before the range settled: not one result.
        if (!page || page.totalFound !== totalFound || page.fetchedAt < settled || !pageIsWhole(page.body, p, pageSize))
          return;
        const rows: HistoryRecordRow[] = [];
        for (const cdr of page.body._embedded.cdrs) {
          const row = historyRow(cdr);
          if (row) rows.push(row);
        }
        await history.addResultRecords(scope, rows);
        records += rows.length;
      }
      await history.putResult(
        scope,
        { key: base.key, filters: { ...base.filters }, from, to },
        records,
        this.deps.now(),
      );
      index.invalidate(scope);
    } finally {
      this.busy.delete(busyKey);
    }
  }
}
