import 'server-only';
/**
 * Where the day packs (lib/store/day-pack.ts) are kept: in `history_day_packs`, built when a day's
 * copy completes (a complete day without one gets it from the copy's next step, or else when it is
 * first read), forgotten when the day's records change; and decoded in a bounded cache in memory, so the same month is not read
 * from disk and decoded again for every search.
 *
 * A pack is only ever served for a day that `history_days` says is complete, read in the same
 * statement: a day being copied again, or deleted, is not answered from an old pack.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { DAY_MS } from '../time/zone-days';
import type { Database } from './db/schema';
import { decodePack, encodePack, PACK_NUMBER_COLUMNS, PACK_TEXT_COLUMNS, type DayPack } from './day-pack';

/**
 * Decoded packs kept in memory, in bytes: a month of a million records is about 60 MB. The
 * oldest read is dropped first; a search of more than this reads the rest from disk each time.
 */
const CACHE_BYTES = 128 * 1024 * 1024;

export interface DayPackStore {
  /**
   * The packs of those of these UTC days that are complete (the caller asks SQL for the others).
   * A complete day without a pack gets one now.
   */
  packs(scope: string, days: readonly string[]): Promise<Map<string, DayPack>>;
  /** Builds the pack of a day whose copy just completed, in the caller's transaction. */
  build(q: Transaction<Database>, scope: string, day: string): Promise<void>;
  /**
   * Builds the pack of the newest complete day that has none (copied before packs existed, or
   * a record added since); answers that day, or null when every complete day has its pack.
   */
  buildMissing(scope: string): Promise<string | null>;
  /** Forgets the packs of these days (records were added to them). */
  forget(q: Kysely<Database> | Transaction<Database>, scope: string, days: readonly string[]): Promise<void>;
  /** Drops the scope's packs from memory (its copy was deleted). */
  evict(scope: string): void;
}

export function createDayPackStore(db: Kysely<Database>): DayPackStore {
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

  /** Encodes the day's records, in the table's order, and stores them; answers the version and the pack. */
  const buildPack = async (q: Kysely<Database> | Transaction<Database>, scope: string, day: string): Promise<{ version: string; bytes: Buffer }> => {
    const start = Date.parse(`${day}T00:00:00Z`);
    const rows = await q
      .selectFrom('history_records')
      .select(['id', ...PACK_TEXT_COLUMNS, ...PACK_NUMBER_COLUMNS])
      .where('scope', '=', scope)
      .where('received_ms', '>=', start)
      .where('received_ms', '<', start + DAY_MS)
      .orderBy('received_ms')
      .orderBy('trx_id')
      .execute();
    const bytes = encodePack(rows);
    const version = randomUUID();
    const row = { scope, day, version, records: rows.length, built_at: Date.now(), pack: bytes };
    await q
      .insertInto('history_day_packs')
      .values(row)
      .onConflict((oc) => oc.columns(['scope', 'day']).doUpdateSet({ version, records: row.records, built_at: row.built_at, pack: bytes }))
      .execute();
    return { version, bytes };
  };

  return {
    async packs(scope, days) {
      const found = new Map<string, DayPack>();
      if (days.length === 0) return found;
      const listed = await completeDays(scope).where('d.day', 'in', [...days]).execute();
      const unread: string[] = [];
      for (const { day, version } of listed) {
        const pack = version === null ? undefined : recall(keyOf(scope, day, version));
        if (pack) found.set(day, pack);
        else unread.push(day);
      }
      if (unread.length > 0) {
        const stored = await db.selectFrom('history_day_packs').select(['day', 'version', 'pack']).where('scope', '=', scope).where('day', 'in', unread).execute();
        const byDay = new Map(stored.map((s) => [s.day, s]));
        for (const day of unread) {
          let entry = byDay.get(day);
          let pack = entry ? decodePack(entry.pack) : null;
          if (!entry || !pack) {
            // None yet (an older copy, or records added since), or of another version: built now.
            const built = await db.transaction().execute((trx) => buildPack(trx, scope, day));
            entry = { day, version: built.version, pack: built.bytes };
            pack = decodePack(built.bytes)!;
          }
          remember(keyOf(scope, day, entry.version), scope, pack);
          found.set(day, pack);
        }
      }
      return found;
    },
    async build(q, scope, day) {
      await buildPack(q, scope, day);
    },
    async buildMissing(scope) {
      const missing = await completeDays(scope).where('p.day', 'is', null).orderBy('d.day', 'desc').limit(1).executeTakeFirst();
      if (!missing) return null;
      await db.transaction().execute((trx) => buildPack(trx, scope, missing.day));
      return missing.day;
    },
    async forget(q, scope, days) {
      if (days.length > 0) await q.deleteFrom('history_day_packs').where('scope', '=', scope).where('day', 'in', [...days]).execute();
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
