import 'server-only';
/**
 * The durable cache of upstream answers, always keyed by the account first: one account's records
 * are never served to another. Pages are kept as the upstream sent them (UTC, upstream page size),
 * and every record of a page is indexed by trx_id so a seen transaction costs no call.
 */
import type { Cdr, ResultPage } from '../cdr/schema';
import type { Kysely } from 'kysely';
import { bulkInsert } from '../db/bulk-insert';
import { greaterOf } from '../db/greater-of';
import type { Database } from '../db/schema';

export interface CachedPage {
  /** The normalised query without page and sort (see lib/server/upstream-plan.ts). */
  queryKey: string;
  sortOrder: 'asc' | 'desc';
  page: number;
  totalFound: number;
  body: ResultPage;
  fetchedAt: number;
  expiresAt: number;
}

export interface CachedRecord {
  cdr: Cdr;
  fetchedAt: number;
  expiresAt: number;
}

export interface PageCacheStore {
  getPage(account: string, queryKey: string, sortOrder: 'asc' | 'desc', page: number): Promise<CachedPage | null>;
  /** Any fresh page of the query, either sort order (to learn total_found without a call). */
  anyPage(account: string, queryKey: string, now: number): Promise<CachedPage | null>;
  /**
   * Stores a page and indexes each of its records by trx_id (a pointer to the page, not a second
   * copy of the record), in one transaction. `indexRecords: false` stores the page alone (an
   * export's: its records are indexed in bulk once it is done, indexPageRecords).
   */
  putPage(account: string, page: CachedPage, options?: { indexRecords?: boolean }): Promise<void>;
  /**
   * Indexes the records of pages already stored, in one transaction: many pages at once write each
   * page of the trx_id index once, where a transaction per page writes it again for every page
   * (trx_ids are random, so a page's records land all over the index).
   */
  indexPageRecords(account: string, pages: readonly CachedPage[]): Promise<void>;
  /**
   * How many pages of the query in this order are stored with this total, fetched at `fetchedSince`
   * or later (a complete result has them all).
   */
  countPages(
    account: string,
    queryKey: string,
    sortOrder: 'asc' | 'desc',
    totalFound: number,
    fetchedSince: number,
  ): Promise<number>;
  /** A record by trx_id, from its own copy or from the page that holds it. */
  getRecord(account: string, trxId: string): Promise<CachedRecord | null>;
  /** Records fetched without a page (the detail call), each kept as its own copy. */
  putRecords(account: string, cdrs: readonly Cdr[], fetchedAt: number, expiresAt: number): Promise<void>;
  /** Drops what expired before `now`. */
  prune(now: number): Promise<void>;
  /** Forgets every page and record of the account (its local history was deleted). */
  forget(account: string): Promise<void>;
}

/** Rows per INSERT when many records are written at once (well under either dialect's parameter limit). */
const RECORDS_PER_INSERT = 200;

/** Where a record indexed by trx_id is: its own JSON, or the cached page that holds it. */
type RecordSource = { body: string } | { page: Pick<CachedPage, 'queryKey' | 'sortOrder' | 'page'> };

/** Indexes records by trx_id inside the caller's transaction. */
async function putRecordsIn(
  trx: Kysely<Database>,
  account: string,
  cdrs: readonly Cdr[],
  source: (cdr: Cdr) => RecordSource,
  fetchedAt: number,
  expiresAt: number,
): Promise<void> {
  // One row per trx_id, the last copy winning as it would row by row: PostgreSQL refuses an
  // INSERT … ON CONFLICT that touches one row twice.
  const byId = new Map(cdrs.map((cdr) => [cdr.trx_id, cdr]));
  const rows = [...byId.values()].map((cdr) => {
    const where = source(cdr);
    return 'body' in where
      ? {
          account,
          trx_id: cdr.trx_id,
          body: where.body,
          page_query_key: null,
          page_sort: null,
          page_no: null,
          fetched_at: fetchedAt,
          expires_at: expiresAt,
        }
      : {
          account,
          trx_id: cdr.trx_id,
          body: '',
          page_query_key: where.page.queryKey,
          page_sort: where.page.sortOrder,
          page_no: where.page.page,
          fetched_at: fetchedAt,
          expires_at: expiresAt,
        };
  });
  for (let i = 0; i < rows.length; i += RECORDS_PER_INSERT) {
    const batch = rows.slice(i, i + RECORDS_PER_INSERT);
    await bulkInsert(trx, 'cache_records', batch, () =>
      trx
        .insertInto('cache_records')
        .values(batch)
        .onConflict((oc) =>
          oc
            .columns(['account', 'trx_id'])
            // A record keeps the longest life any page gave it (a settled page outlives a recent
            // one), and an older fetch never overwrites a newer one.
            .doUpdateSet((eb) => ({
              body: eb.ref('excluded.body'),
              page_query_key: eb.ref('excluded.page_query_key'),
              page_sort: eb.ref('excluded.page_sort'),
              page_no: eb.ref('excluded.page_no'),
              fetched_at: eb.ref('excluded.fetched_at'),
              expires_at: greaterOf('cache_records.expires_at', 'excluded.expires_at'),
            }))
            .where('excluded.fetched_at', '>=', (eb) => eb.ref('cache_records.fetched_at')),
        ),
    );
  }
}

export function createPageCache(db: Kysely<Database>): PageCacheStore {
  type PageRow = Database['cache_pages'];
  const toPage = (row: PageRow | undefined): CachedPage | null =>
    row
      ? {
          queryKey: row.query_key,
          sortOrder: row.sort_order,
          page: row.page,
          totalFound: row.total_found,
          body: JSON.parse(row.body) as ResultPage,
          fetchedAt: row.fetched_at,
          expiresAt: row.expires_at,
        }
      : null;

  return {
    async getPage(account, queryKey, sortOrder, page) {
      const row = await db
        .selectFrom('cache_pages')
        .selectAll()
        .where('account', '=', account)
        .where('query_key', '=', queryKey)
        .where('sort_order', '=', sortOrder)
        .where('page', '=', page)
        .executeTakeFirst();
      return toPage(row);
    },
    async anyPage(account, queryKey, now) {
      const row = await db
        .selectFrom('cache_pages')
        .selectAll()
        .where('account', '=', account)
        .where('query_key', '=', queryKey)
        .where('expires_at', '>', now)
        .orderBy('fetched_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return toPage(row);
    },
    async countPages(account, queryKey, sortOrder, totalFound, fetchedSince) {
      const row = await db
        .selectFrom('cache_pages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account', '=', account)
        .where('query_key', '=', queryKey)
        .where('sort_order', '=', sortOrder)
        .where('total_found', '=', totalFound)
        .where('fetched_at', '>=', fetchedSince)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async putPage(account, page, options = {}) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('cache_pages')
          .values({
            account,
            query_key: page.queryKey,
            sort_order: page.sortOrder,
            page: page.page,
            total_found: page.totalFound,
            body: JSON.stringify(page.body),
            fetched_at: page.fetchedAt,
            expires_at: page.expiresAt,
          })
          .onConflict((oc) =>
            oc.columns(['account', 'query_key', 'sort_order', 'page']).doUpdateSet((eb) => ({
              total_found: eb.ref('excluded.total_found'),
              body: eb.ref('excluded.body'),
              fetched_at: eb.ref('excluded.fetched_at'),
              expires_at: eb.ref('excluded.expires_at'),
            })),
          )
          .execute();
        // The records point at the page rather than holding a second copy of it.
        if (options.indexRecords !== false)
          await putRecordsIn(trx, account, page.body._embedded.cdrs, () => ({ page }), page.fetchedAt, page.expiresAt);
      });
    },
    async indexPageRecords(account, pages) {
      if (pages.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const page of pages)
          await putRecordsIn(trx, account, page.body._embedded.cdrs, () => ({ page }), page.fetchedAt, page.expiresAt);
      });
    },
    async getRecord(account, trxId) {
      const row = await db
        .selectFrom('cache_records as r')
        .leftJoin('cache_pages as p', (join) =>
          join
            .onRef('p.account', '=', 'r.account')
            .onRef('p.query_key', '=', 'r.page_query_key')
            .onRef('p.sort_order', '=', 'r.page_sort')
            .onRef('p.page', '=', 'r.page_no'),
        )
        .select(['r.trx_id', 'r.body', 'r.fetched_at', 'r.expires_at', 'p.body as page_body'])
        .where('r.account', '=', account)
        .where('r.trx_id', '=', trxId)
        .executeTakeFirst();
      if (!row) return null;
      // A page fetched again since may no longer hold the record (records shift between pages of
      // recent data): then it is not in the cache, and one call finds it.
      const cdr =
        row.body !== ''
          ? (JSON.parse(row.body) as Cdr)
          : row.page_body
            ? (JSON.parse(row.page_body) as ResultPage)._embedded.cdrs.find((c) => c.trx_id === row.trx_id)
            : undefined;
      return cdr ? { cdr, fetchedAt: row.fetched_at, expiresAt: row.expires_at } : null;
    },
    async putRecords(account, cdrs, fetchedAt, expiresAt) {
      if (cdrs.length > 0)
        await db
          .transaction()
          .execute((trx) =>
            putRecordsIn(trx, account, cdrs, (cdr) => ({ body: JSON.stringify(cdr) }), fetchedAt, expiresAt),
          );
    },
    async prune(now) {
      await db.deleteFrom('cache_pages').where('expires_at', '<', now).execute();
      await db.deleteFrom('cache_records').where('expires_at', '<', now).execute();
    },
    async forget(account) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('cache_records').where('account', '=', account).execute();
        await trx.deleteFrom('cache_pages').where('account', '=', account).execute();
      });
    },
  };
}
