import 'server-only';
/**
 * The day packs executor of the local history's searches (./day-pack.ts): a search the rollups
 * cannot count (free text, a price or latency bound) over complete days, answered from their
 * packs — its total, and the ids at [offset, offset + limit) in received-time order. Free text
 * comes as the ids its index found; the packs give the times, the order and the other conditions
 * without reading a row. What lies before or after the packed days (the next day's first instant,
 * most often) is read by SQL, and the pieces are put together in order.
 *
 * A year of packs is a scan of millions of entries: the thread that answers everybody is given
 * back every few milliseconds of it, so other requests go on meanwhile.
 */
import type { TimeRange } from '../../query/ranges';
import { IdSet, scanPack, type DayPack } from './day-pack';
import type { DayPackStore } from './day-pack-store';
import { packPlan, utcDaysOf } from './pack-plan';
import type { SearchWhere, SqlSearch } from './search-sql';
import type { ResolvedSearch } from './search-types';

/** Work on the server's thread between two turns given back to other requests. */
const SLICE_MS = 8;

export interface PackSearch {
  /** Null when the packs cannot answer (no complete day with a pack, a gap between packed days): SQL answers all of it. */
  slice(search: ResolvedSearch, offset: number, limit: number): Promise<{ total: number; ids: number[] } | null>;
}

export function createPackSearch(
  dayPacks: DayPackStore,
  sqlSearch: SqlSearch,
  whereOf: (search: ResolvedSearch) => SearchWhere,
): PackSearch {
  return {
    async slice(search, offset, limit) {
      const packs = await dayPacks.packs(search.scope, utcDaysOf(search.ranges));
      if (packs.size === 0) return null;
      const plan = packPlan(search.ranges, new Set(packs.keys()));
      if (plan.between.length > 0) return null;
      const ids = search.text === undefined ? undefined : new IdSet(search.textIds ?? []);

      type Piece = { pack: DayPack } | { ranges: TimeRange[] };
      const pieces: Piece[] = [];
      if (plan.before.length > 0) pieces.push({ ranges: plan.before });
      for (const day of [...packs.keys()].sort()) pieces.push({ pack: packs.get(day)! });
      if (plan.after.length > 0) pieces.push({ ranges: plan.after });
      if (search.order === 'desc') pieces.reverse();

      let total = 0;
      const page: number[] = [];
      let sliceStart = performance.now();
      for (const piece of pieces) {
        const from = Math.max(0, offset - total);
        const wanted = offset + limit - total - from;
        if ('pack' in piece) {
          const kept = scanPack(
            piece.pack,
            { ranges: plan.packed, where: search.where, ...(ids ? { ids } : {}) },
            search.order,
          );
          for (let j = from; j < kept.length && j < from + wanted; j++) page.push(piece.pack.ids[kept[j]!]!);
          total += kept.length;
          if (performance.now() - sliceStart > SLICE_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
          }
          continue;
        }
        const sub = { ...search, ranges: piece.ranges };
        const where = whereOf(sub);
        const n = await sqlSearch.count(sub, where);
        if (wanted > 0 && from < n)
          page.push(...(await sqlSearch.pageIds(sub, from, wanted, where, false)).ids.map(Number));
        total += n;
      }
      return { total, ids: page };
    },
  };
}
