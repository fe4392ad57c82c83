import 'server-only';
/**
 * The rollups executor of the local history's searches (the rollups: ./rollups.ts): counts of
 * what they are kept by — whole UTC days from the daily rollups, whole hours from the hourly
 * ones, the ragged ends from the records: a month sums a few thousand rows, not a million — and
 * deep pages in received-time order found through them (seek).
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { DAY_MS, HOUR_MS } from '../../time/units';
import type { Database } from '../../db/schema';
import { rollupPlan, rollupsServe, type RollupDimension } from './rollups';
import type { ResolvedSearch } from './search-types';

/** From this offset on, a page in received-time order is found through the hourly rollups (seek). */
export const SEEK_FROM_OFFSET = 2_000;

type Segment = { from: number; to: number; n: number | null };

export interface RollupSearch {
  /** The search's count, when rollupsServe(search). */
  count(search: ResolvedSearch): Promise<number>;
  /**
   * A deep page in received-time order (page 1000 of a filtered month) would skip tens of
   * thousands of records one by one. The rollups count them instead: the daily counts find the
   * day the page starts in, that day's hourly counts the hour; the page's range is narrowed to
   * start there (and run on in the search's order), the offset to what is left; null when the
   * offset is past the last record. The search as it was when seeking would not pay.
   */
  seek(search: ResolvedSearch, offset: number): Promise<{ search: ResolvedSearch; offset: number } | null>;
}

/** `countRecords`: the SQL count of a search (the ragged ends). */
export function createRollupSearch(
  db: Kysely<Database>,
  countRecords: (search: ResolvedSearch) => Promise<number>,
): RollupSearch {
  /** Conditions of a search on a rollup table's columns (rollupsServe: all of them are). */
  const rollupConditions = <T extends 'history_rollups_daily' | 'history_rollups_hourly'>(
    eb: ExpressionBuilder<Database, T>,
    search: ResolvedSearch,
  ) => search.where.map((c) => eb(eb.ref(c.column as RollupDimension) as never, '=', c.value as never));

  const count = async (search: ResolvedSearch): Promise<number> => {
    const plan = rollupPlan(search.ranges);
    let total = plan.edges.length > 0 ? await countRecords({ ...search, ranges: plan.edges }) : 0;
    if (plan.days.length > 0) {
      const row = await db
        .selectFrom('history_rollups_daily')
        .select((eb) => eb.fn.sum<number>('records').as('n'))
        .where((eb) =>
          eb.and([
            eb('scope', '=', search.scope),
            eb('zone', '=', 'UTC'),
            eb('day', 'in', plan.days),
            ...rollupConditions(eb, search),
          ]),
        )
        .executeTakeFirstOrThrow();
      total += Number(row.n ?? 0);
    }
    if (plan.hours.length > 0) {
      const row = await db
        .selectFrom('history_rollups_hourly')
        .select((eb) => eb.fn.sum<number>('records').as('n'))
        .where((eb) =>
          eb.and([
            eb('scope', '=', search.scope),
            eb.or(plan.hours.map((h) => eb.between('hour_ms', h.from, h.to))),
            ...rollupConditions(eb, search),
          ]),
        )
        .executeTakeFirstOrThrow();
      total += Number(row.n ?? 0);
    }
    return total;
  };

  /** `range` cut into whole units (days or hours, counted from their rollups) and ragged ends (n: null, counted from the records), in the search's order. */
  const segmentsOf = async (
    search: ResolvedSearch,
    range: { from: number; to: number },
    unit: number,
  ): Promise<Segment[]> => {
    const first = Math.ceil(range.from / unit) * unit;
    const last = Math.floor((range.to + 1) / unit) * unit - unit;
    if (first > last) return [{ ...range, n: null }];
    const counts =
      unit === DAY_MS
        ? await db
            .selectFrom('history_rollups_daily')
            .select([
              sql<number>`cast(day as bigint) * ${DAY_MS}`.as('at'),
              (eb) => eb.fn.sum<number>('records').as('n'),
            ])
            .where((eb) =>
              eb.and([
                eb('scope', '=', search.scope),
                eb('zone', '=', 'UTC'),
                eb.between('day', first / DAY_MS, last / DAY_MS),
                ...rollupConditions(eb, search),
              ]),
            )
            .groupBy('day')
            .execute()
        : await db
            .selectFrom('history_rollups_hourly')
            .select([sql<number>`hour_ms`.as('at'), (eb) => eb.fn.sum<number>('records').as('n')])
            .where((eb) =>
              eb.and([
                eb('scope', '=', search.scope),
                eb.between('hour_ms', first, last),
                ...rollupConditions(eb, search),
              ]),
            )
            .groupBy('hour_ms')
            .execute();
    const byStart = new Map(counts.map((c) => [Number(c.at), Number(c.n)]));
    const segments: Segment[] = [];
    if (range.from < first) segments.push({ from: range.from, to: first - 1, n: null });
    for (let t = first; t <= last; t += unit) segments.push({ from: t, to: t + unit - 1, n: byStart.get(t) ?? 0 });
    if (last + unit <= range.to) segments.push({ from: last + unit, to: range.to, n: null });
    return search.order === 'desc' ? segments.reverse() : segments;
  };

  /** The segment holding the record at `offset`, and how many records come before it. */
  const locate = async (
    search: ResolvedSearch,
    offset: number,
    segments: Segment[],
  ): Promise<{ segment: Segment; skipped: number } | null> => {
    let skipped = 0;
    for (const segment of segments) {
      const n = segment.n ?? (await countRecords({ ...search, ranges: [segment] }));
      if (skipped + n > offset) return { segment, skipped };
      skipped += n;
    }
    return null;
  };

  return {
    count,
    async seek(search, offset) {
      // Only for filters the rollups count, one range, and offsets worth the lookups (without a
      // filter the received-time index skips fast).
      if (
        offset < SEEK_FROM_OFFSET ||
        search.sort ||
        search.ranges.length !== 1 ||
        search.where.length === 0 ||
        !rollupsServe(search)
      )
        return { search, offset };
      const range = search.ranges[0]!;
      const located = await locate(search, offset, await segmentsOf(search, range, DAY_MS));
      if (!located) return null; // past the last record
      let { segment, skipped } = located;
      if (segment.n !== null) {
        // A whole day: its hours next.
        const within = await locate(search, offset - skipped, await segmentsOf(search, segment, HOUR_MS));
        if (within) [segment, skipped] = [within.segment, skipped + within.skipped];
      }
      const narrowed =
        search.order === 'desc' ? { from: range.from, to: segment.to } : { from: segment.from, to: range.to };
      return { search: { ...search, ranges: [narrowed] }, offset: offset - skipped };
    },
  };
}
