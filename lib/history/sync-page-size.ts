import 'server-only';
/**
 * The page size background reads ask the upstream for: the local history's sync, exports and
 * reconciliations (people's searches keep reading 100 a page at most: SEARCH_PAGE_SIZE). The
 * upstream documents no maximum and says nothing of what it does above it (it may refuse, or
 * answer fewer records than asked), and every call is precious, so:
 *  - UPSTREAM_PAGE_SIZE pins a size, or `auto` (the default) finds it: the first page the sync
 *    needs anyway is asked with UPSTREAM_PAGE_SIZE_PROBE (1,000). An answer says the size it
 *    served (effectivePageSize: its page_size, the records a full page holds, its last page's
 *    number); a refusal (400 or 422) falls back to 100. Either way it is kept in the store, so
 *    the probe spends no call of its own and is never made twice.
 *  - Every later answer is read the same way: an upstream that starts serving fewer records than
 *    asked is followed down (pages are counted by what the upstream says it serves, never by the
 *    size asked), and one that refuses a size it accepted before falls back to 100, said on the
 *    History page; the pages already kept are not read again.
 */
import type { ResultPage } from '../cdr/schema';
import { pageOfLink } from '../query/wire';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { PageSizeStore, StoredPageSize } from './store/page-size-store';

/** The size read after a refusal, and while nothing is known: the top of the seed's recommended 25–100. */
export const FALLBACK_PAGE_SIZE = 100;
/** People's searches read the upstream at most this many a page: a first answer stays quick. */
export const SEARCH_PAGE_SIZE = 100;
/** The page size people's searches read the upstream at: 100, or less when UPSTREAM_PAGE_SIZE pins less. */
export function searchPageSize(config: Pick<Config, 'UPSTREAM_PAGE_SIZE'>): number {
  const pinned = config.UPSTREAM_PAGE_SIZE;
  return pinned === 'auto' ? SEARCH_PAGE_SIZE : Math.min(SEARCH_PAGE_SIZE, pinned);
}

/**
 * Messages a day the sync keeps up with: the calls it may make in a day at `rate` (its calls a
 * minute, an hour and a day: the tightest gives the day's) times the records a call reads.
 */
export function keepsUpWith(rate: { perMinute: number; perHour: number; perDay: number }, pageSize: number): number {
  const callsADay = Math.min(rate.perDay, rate.perHour * 24, rate.perMinute * 24 * 60);
  return Math.max(0, callsADay) * pageSize;
}

/** Statuses that say the upstream refuses the query as asked (the platform documents 400; 422 is its usual cousin). */
const REFUSALS = new Set([400, 422]);

export interface PageSizeState {
  /** The size background reads ask for now. */
  size: number;
  /**
   * configured: pinned by UPSTREAM_PAGE_SIZE; probed: what the upstream served when asked for
   * more; fallback: the upstream refused a larger size; unprobed: nothing asked yet (the sync's
   * next page asks with the probe's size).
   */
  source: 'configured' | 'probed' | 'fallback' | 'unprobed';
  /** When it was decided (ms), when the upstream decided it. */
  decidedAt: number | null;
  /** The size the upstream refused, and its status, when it fell back. */
  refused: { asked: number; status: number } | null;
}

/**
 * The size an answer was served at, never more than asked: what it says it serves (page_size),
 * checked against its last page's number (the pages needed at the size served: the links decide,
 * as they decide which page comes next). When the two disagree, a full page (one with records
 * after it) that agrees with the links says the size; else the largest size the links allow.
 * A page short of its own count (a fault, the sync reads the day again later) is not a smaller
 * size: its links and page_size still say the size it was asked at. Without either, a full page
 * is all there is to go by.
 */
export function effectivePageSize(
  asked: number,
  body: Pick<ResultPage, 'page_size' | 'page' | '_links' | '_embedded'>,
): number {
  let size = asked;
  const says = Number.isSafeInteger(body.page_size) && body.page_size >= 1;
  if (says) size = Math.min(size, body.page_size);
  const total = body._embedded.total_found;
  if (total === 0) return size;
  const held = body._embedded.cdrs.length;
  const full = held > 0 && ((body.page ?? 1) - 1) * asked + held < total ? held : null;
  const last = pageOfLink(body._links?.last?.href);
  if (!Number.isSafeInteger(last) || last < 1) return !says && full !== null ? Math.min(size, full) : size;
  const agrees = (e: number) => Math.ceil(total / e) === last;
  if (agrees(size)) return size;
  if (full !== null && full < size && agrees(full)) return full;
  // The largest size at which `total` records take `last` pages.
  if (last > 1) return Math.max(1, Math.min(size, Math.ceil(total / (last - 1)) - 1));
  return size;
}

export interface PageSizesDeps {
  store: PageSizeStore;
  config: Pick<Config, 'UPSTREAM_PAGE_SIZE' | 'UPSTREAM_PAGE_SIZE_PROBE'>;
  log: Logger;
  now(): number;
}

export class PageSizes {
  constructor(private readonly deps: PageSizesDeps) {}

  /** The size background reads use now, and how it was decided. */
  async state(): Promise<PageSizeState> {
    const pinned = this.deps.config.UPSTREAM_PAGE_SIZE;
    if (pinned !== 'auto') return { size: pinned, source: 'configured', decidedAt: null, refused: null };
    const stored = await this.deps.store.get();
    if (!stored) return { size: FALLBACK_PAGE_SIZE, source: 'unprobed', decidedAt: null, refused: null };
    return {
      size: stored.size,
      source: stored.source,
      decidedAt: stored.decidedAt,
      refused:
        stored.source === 'fallback' && stored.status !== null ? { asked: stored.asked, status: stored.status } : null,
    };
  }

  /** The size the next background page is asked with: the known one, or the probe's while none is known. */
  async toAsk(): Promise<number> {
    const state = await this.state();
    return state.source === 'unprobed' ? this.deps.config.UPSTREAM_PAGE_SIZE_PROBE : state.size;
  }

  /**
   * A background page asked with `asked` came back: the size it was served at (effectivePageSize),
   * kept when it is the probe's answer or smaller than the size kept.
   */
  async served(asked: number, body: Parameters<typeof effectivePageSize>[1]): Promise<number> {
    const size = effectivePageSize(asked, body);
    if (this.deps.config.UPSTREAM_PAGE_SIZE !== 'auto') return size;
    const stored = await this.deps.store.get();
    if (!stored || size < stored.size) {
      await this.keep({ size, source: 'probed', asked, status: null, decidedAt: this.deps.now() });
      this.deps.log.info('upstream.page_size', { size, asked, was: stored?.size ?? null });
    }
    return size;
  }

  /**
   * The upstream refused a background page asked with `asked` (`status`): when the size may be
   * why (larger than the fallback, not pinned), the size falls back to FALLBACK_PAGE_SIZE, kept and
   * said; answers the size to ask with now, or null when the refusal is not about the page size.
   */
  async refused(asked: number, status: number | undefined): Promise<number | null> {
    if (this.deps.config.UPSTREAM_PAGE_SIZE !== 'auto') return null;
    if (status === undefined || !REFUSALS.has(status) || asked <= FALLBACK_PAGE_SIZE) return null;
    const stored = await this.deps.store.get();
    if (!stored || stored.size > FALLBACK_PAGE_SIZE) {
      await this.keep({ size: FALLBACK_PAGE_SIZE, source: 'fallback', asked, status, decidedAt: this.deps.now() });
      this.deps.log.warn('upstream.page_size_refused', { asked, status, size: FALLBACK_PAGE_SIZE });
    }
    return FALLBACK_PAGE_SIZE;
  }

  private keep(size: StoredPageSize): Promise<void> {
    return this.deps.store.put(size);
  }
}
