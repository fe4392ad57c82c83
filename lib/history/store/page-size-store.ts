import 'server-only';
/**
 * Where the page size found for background reads is kept (upstream_page_size, migration
 * 0041-upstream-page-size): one row for the deployment, read by every instance.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export interface StoredPageSize {
  size: number;
  source: 'probed' | 'fallback';
  /** The size asked for when it was decided. */
  asked: number;
  /** The upstream's status when it refused `asked`. */
  status: number | null;
  decidedAt: number;
}

export interface PageSizeStore {
  get(): Promise<StoredPageSize | null>;
  put(size: StoredPageSize): Promise<void>;
}

export function createPageSizeStore(db: Kysely<Database>): PageSizeStore {
  return {
    async get() {
      const row = await db.selectFrom('upstream_page_size').selectAll().where('id', '=', 1).executeTakeFirst();
      if (!row) return null;
      return {
        size: row.size,
        source: row.source,
        asked: row.asked,
        status: row.status,
        decidedAt: Number(row.decided_at),
      };
    },
    async put(s) {
      const row = { id: 1, size: s.size, source: s.source, asked: s.asked, status: s.status, decided_at: s.decidedAt };
      const { id: _id, ...changes } = row;
      await db
        .insertInto('upstream_page_size')
        .values(row)
        .onConflict((oc) => oc.column('id').doUpdateSet(changes))
        .execute();
    },
  };
}
