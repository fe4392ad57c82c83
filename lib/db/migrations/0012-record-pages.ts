import 'server-only';
/**
 * A cached page's records point at the page instead of holding a copy of themselves: the record
 * index by trx_id (what makes a seen transaction cost no call) was a second copy of every page, as
 * many bytes again written per page an export or a search reads. A row now names its page (query
 * key, sort, page number) and leaves `body` empty; only a record fetched alone (the detail call)
 * keeps its JSON there. Rows written before it keep their bodies and are read from them.
 */
import type { Kysely, Migration } from 'kysely';

export const recordPagesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, type] of [
      ['page_query_key', 'text'],
      ['page_sort', 'text'],
      ['page_no', 'integer'],
    ] as const) {
      await db.schema.alterTable('cache_records').addColumn(name, type).execute();
    }
  },
};
