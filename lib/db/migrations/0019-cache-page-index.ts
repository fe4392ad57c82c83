import 'server-only';
/**
 * What the page cache asks of a result's pages besides their bodies — how many are stored
 * (PageCacheStore.countPages: is it complete yet?), and which is the newest fresh one (anyPage: its
 * size) — answered from an index instead of the table. Each page row holds its whole body, and
 * `fetched_at` and `expires_at` come after it: read from the table, both walked every body of the
 * result, about 100 KB a page. An export of 210 pages spent more time counting after each page than
 * on anything else, and a search of a result with 210 pages cached took 20–30 ms to learn its size.
 */
import type { Kysely, Migration } from 'kysely';

export const cachePageIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('cache_pages_counts')
      .on('cache_pages')
      .columns(['account', 'query_key', 'sort_order', 'total_found', 'fetched_at'])
      .execute();
    await db.schema
      .createIndex('cache_pages_newest')
      .on('cache_pages')
      .columns(['account', 'query_key', 'fetched_at', 'expires_at'])
      .execute();
  },
};
