import 'server-only';
/**
 * Where the day packs (lib/history/store/day-pack.ts) are read: `history_day_packs`, decoded in a bounded
 * cache in memory, so the same month is not read from disk and decoded again for every search.
 * They are written by the history writer (./writes.ts): built once a day's sync is
 * complete and nothing else waits, dropped when the day's records change. A complete day found
 * without its pack is answered by SQL this time and gets its pack built in the background.
 *
 * A pack is only ever served for a day that `history_days` says is complete, read in the same
 * statement: a day being synced again, or deleted, is not answered from an old pack.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { decodePack, type DayPack } from './day-pack';

/**
 * Decoded packs kept in memory, in bytes: about 42 a record, so a year of a busy account
 * (3,000,000 records) is about 130 MB and a search over the year reads no pack twice. The oldest
 * read is dropped first; a search of more than this reads the rest from disk each time.
 */
const CACHE_BYTES = 192 * 1024 * 1024;

export interface DayPackStore {
  /**
   * The packs of those of these UTC days that are complete and have one (the caller asks SQL for
   * the others); a complete day without one is handed to `build`.
   */
  packs(scope: string, days: readonly string[]): Promise<Map<string, DayPack>>;
  /** The scope's complete days without a pack (synced before packs existed, or changed since), newest first. */
  missing(scope: string): Promise<string[]>;
  /** Drops the scope's packs from memory (its local history was deleted). */
  evict(scope: string): void;
}

/** `build` is asked for the pack of a complete day that has none (it builds it in the background). */
export function createDayPackStore(db: Kysely<Database>, build: (scope: string, day: string) => void): DayPackStore {
  const cache = new Map<string, { pack: DayPack; scope: string }>();
  let cachedBytes = 0;
  const keyOf = (scope: string, day: string, version: string) => `${scope}\u0000${day}\u0000${version}`;

  const remember = (key: string, scope: string, pack: DayPack) => {
    if (cache.has(key)) return;
    cache.set(key, { pack, scope });
    cachedBytes += pack.bytes;
    for (const [oldest, entry] of cache) {
      if (cachedBytes <= CACHE_BYTES) break;
      cache.delete(oldest);
      cachedBytes -= entry.pack.bytes;
    }
  };
  const recall = (key: string): DayPack | undefined => {
    const entry = cache.get(key);
    if (!entry) return undefined;
    // Most recently read last: the oldest read goes first.
    cache.delete(key);
    cache.set(key, entry);
    return entry.pack;
  };

  /** The scope's complete days, each with its pack's version (null: none yet). */
  const completeDays = (scope: string) =>
    db
      .selectFrom('history_days as d')
      .leftJoin('history_day_packs as p', (join) => join.onRef('p.scope', '=', 'd.scope').onRef('p.day', '=', 'd.day'))
      .select(['d.day', 'p.version'])
      .where('d.scope', '=', scope)
      .where('d.state', '=', 'complete');

  return {
    async packs(scope, days) {
      const found = new Map<string, DayPack>();
      if (days.length === 0) return found;
      const listed = await completeDays(scope)
        .where('d.day', 'in', [...days])
        .execute();
      const unread: string[] = [];
      for (const { day, version } of listed) {
        if (version === null) {
          build(scope, day);
          continue;
        }
        const pack = recall(keyOf(scope, day, version));
        if (pack) found.set(day, pack);
        else unread.push(day);
      }
      if (unread.length > 0) {
        const stored = await db
          .selectFrom('history_day_packs')
          .select(['day', 'version', 'pack'])
          .where('scope', '=', scope)
          .where('day', 'in', unread)
          .execute();
        for (const entry of stored) {
          const pack = decodePack(entry.pack);
          // Of another format version: built again.
          if (!pack) {
            build(scope, entry.day);
            continue;
          }
          remember(keyOf(scope, entry.day, entry.version), scope, pack);
          found.set(entry.day, pack);
        }
      }
      return found;
    },
    async missing(scope) {
      const rows = await completeDays(scope).where('p.day', 'is', null).orderBy('d.day', 'desc').execute();
      return rows.map((r) => r.day);
    },
    evict(scope) {
      for (const [key, entry] of cache) {
        if (entry.scope !== scope) continue;
        cache.delete(key);
        cachedBytes -= entry.pack.bytes;
      }
    },
  };
}
