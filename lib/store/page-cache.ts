import 'server-only';
/**
 * The durable cache of upstream answers, always keyed by the account first: one account's records
 * are never served to another. Pages are kept as the upstream sent them (UTC, upstream page size),
 * and every record of a page is indexed by trx_id so a seen transaction costs no call.
 */
import type { Cdr, ResultPage } from '../cdr/schema';
import type { Kysely } from 'kysely';
import type { Db } from './db';
import { greaterOf } from './db/greater-of';
import type { Database } from './db/schema';

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
  putPage(account: string, page: CachedPage): Promise<void>;
  getRecord(account: string, trxId: string): Promise<CachedRecord | null>;
  putRecords(account: string, cdrs: readonly Cdr[], fetchedAt: number, expiresAt: number): Promise<void>;
  /** Drops what expired before `now`. */
  prune(now: number): Promise<void>;
}

export function createSqlitePageCache(db: Db): PageCacheStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS cache_pages (
      account TEXT NOT NULL,
      query_key TEXT NOT NULL,
      sort_order TEXT NOT NULL,
      page INTEGER NOT NULL,
      total_found INTEGER NOT NULL,
      body TEXT NOT NULL,
      fetched_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (account, query_key, sort_order, page)
    );
    CREATE INDEX IF NOT EXISTS cache_pages_expires ON cache_pages (expires_at);
    CREATE TABLE IF NOT EXISTS cache_records (
      account TEXT NOT NULL,
      trx_id TEXT NOT NULL,
      body TEXT NOT NULL,
      fetched_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (account, trx_id)
    );
    CREATE INDEX IF NOT EXISTS cache_records_expires ON cache_records (expires_at);
  `);
  const getPage = db.prepare(
    'SELECT * FROM cache_pages WHERE account = ? AND query_key = ? AND sort_order = ? AND page = ?',
  );
  const anyPage = db.prepare(
    'SELECT * FROM cache_pages WHERE account = ? AND query_key = ? AND expires_at > ? ORDER BY fetched_at DESC LIMIT 1',
  );
  const putPage = db.prepare(`
    INSERT INTO cache_pages (account, query_key, sort_order, page, total_found, body, fetched_at, expires_at)
    VALUES (@account, @queryKey, @sortOrder, @page, @totalFound, @body, @fetchedAt, @expiresAt)
    ON CONFLICT (account, query_key, sort_order, page) DO UPDATE SET
      total_found = excluded.total_found, body = excluded.body,
      fetched_at = excluded.fetched_at, expires_at = excluded.expires_at
  `);
  const getRecord = db.prepare('SELECT body, fetched_at, expires_at FROM cache_records WHERE account = ? AND trx_id = ?');
  // A record keeps the longest life any page gave it (a settled page outlives a recent one).
  const putRecord = db.prepare(`
    INSERT INTO cache_records (account, trx_id, body, fetched_at, expires_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (account, trx_id) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at,
      expires_at = max(cache_records.expires_at, excluded.expires_at)
    WHERE excluded.fetched_at >= cache_records.fetched_at
  `);
  const putRecords = db.transaction((account: string, cdrs: readonly Cdr[], fetchedAt: number, expiresAt: number) => {
    for (const cdr of cdrs) putRecord.run(account, cdr.trx_id, JSON.stringify(cdr), fetchedAt, expiresAt);
  });
  const prunePages = db.prepare('DELETE FROM cache_pages WHERE expires_at < ?');
  const pruneRecords = db.prepare('DELETE FROM cache_records WHERE expires_at < ?');

  type PageRow = {
    query_key: string;
    sort_order: 'asc' | 'desc';
    page: number;
    total_found: number;
    body: string;
    fetched_at: number;
    expires_at: number;
  };
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
      return toPage(getPage.get(account, queryKey, sortOrder, page) as PageRow | undefined);
    },
    async anyPage(account, queryKey, now) {
      return toPage(anyPage.get(account, queryKey, now) as PageRow | undefined);
    },
    async putPage(account, page) {
      putPage.run({ account, ...page, body: JSON.stringify(page.body) });
    },
    async getRecord(account, trxId) {
      const row = getRecord.get(account, trxId) as { body: string; fetched_at: number; expires_at: number } | undefined;
      return row ? { cdr: JSON.parse(row.body) as Cdr, fetchedAt: row.fetched_at, expiresAt: row.expires_at } : null;
    },
    async putRecords(account, cdrs, fetchedAt, expiresAt) {
      putRecords(account, cdrs, fetchedAt, expiresAt);
    },
    async prune(now) {
      prunePages.run(now);
      pruneRecords.run(now);
    },
  };
}

/** Rows per INSERT when many records are written at once (well under either dialect's parameter limit). */
const RECORDS_PER_INSERT = 200;

/** The page cache on the Kysely store (SQLite or PostgreSQL alike). */
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
    async putPage(account, page) {
      await db
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
    },
    async getRecord(account, trxId) {
      const row = await db
        .selectFrom('cache_records')
        .select(['body', 'fetched_at', 'expires_at'])
        .where('account', '=', account)
        .where('trx_id', '=', trxId)
        .executeTakeFirst();
      return row ? { cdr: JSON.parse(row.body) as Cdr, fetchedAt: row.fetched_at, expiresAt: row.expires_at } : null;
    },
    async putRecords(account, cdrs, fetchedAt, expiresAt) {
      // One row per trx_id, the last copy winning as it would row by row: PostgreSQL refuses an
      // INSERT … ON CONFLICT that touches one row twice.
      const byId = new Map(cdrs.map((cdr) => [cdr.trx_id, cdr]));
      const rows = [...byId.values()].map((cdr) => ({ account, trx_id: cdr.trx_id, body: JSON.stringify(cdr), fetched_at: fetchedAt, expires_at: expiresAt }));
      if (rows.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += RECORDS_PER_INSERT) {
          await trx
            .insertInto('cache_records')
            .values(rows.slice(i, i + RECORDS_PER_INSERT))
            .onConflict((oc) =>
              oc
                .columns(['account', 'trx_id'])
                // A record keeps the longest life any page gave it (a settled page outlives a
                // recent one), and an older fetch never overwrites a newer one.
                .doUpdateSet((eb) => ({
                  body: eb.ref('excluded.body'),
                  fetched_at: eb.ref('excluded.fetched_at'),
                  expires_at: greaterOf('cache_records.expires_at', 'excluded.expires_at'),
                }))
                .where('excluded.fetched_at', '>=', (eb) => eb.ref('cache_records.fetched_at')),
            )
            .execute();
        }
      });
    },
    async prune(now) {
      await db.deleteFrom('cache_pages').where('expires_at', '<', now).execute();
      await db.deleteFrom('cache_records').where('expires_at', '<', now).execute();
    },
  };
}
