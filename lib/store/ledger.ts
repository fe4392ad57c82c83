import 'server-only';
/**
 * The durable ledger of upstream calls. A call is written before it is sent and counts whatever
 * its outcome (shared/upstream/notes.md: assume failed calls count), so a restart never forgets a
 * call and the next call after a restart cannot break a window.
 */
import type { Kysely } from 'kysely';
import type { Db } from './db';
import { greaterOf } from './db/greater-of';
import type { Database } from './db/schema';

export interface LedgerStore {
  /** Records a call about to be sent; returns its id. */
  recordCall(account: string, at: number, kind: string): Promise<number>;
  /** Notes how the call ended (for the record; it counts either way). */
  finishCall(id: number, outcome: string): Promise<void>;
  /** Send times of the account's calls at or after `since`, oldest first. */
  callsSince(account: string, since: number): Promise<number[]>;
  /** Send times of every account's calls at or after `since`, oldest first (the deployment's). */
  allCallsSince(since: number): Promise<number[]>;
  /** The upstream answered 429: do not call for this account before `until`. */
  setBlockedUntil(account: string, until: number): Promise<void>;
  getBlockedUntil(account: string): Promise<number | null>;
  /** Forgets calls older than `before` (they are outside every window). */
  prune(before: number): Promise<void>;
}

export function createSqliteLedger(db: Db): LedgerStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS upstream_calls (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account TEXT NOT NULL,
      at INTEGER NOT NULL,
      kind TEXT NOT NULL,
      outcome TEXT
    );
    CREATE INDEX IF NOT EXISTS upstream_calls_account_at ON upstream_calls (account, at);
    CREATE INDEX IF NOT EXISTS upstream_calls_at ON upstream_calls (at);
    CREATE TABLE IF NOT EXISTS upstream_blocks (
      account TEXT PRIMARY KEY,
      until INTEGER NOT NULL
    );
  `);
  const insert = db.prepare('INSERT INTO upstream_calls (account, at, kind) VALUES (?, ?, ?)');
  const finish = db.prepare('UPDATE upstream_calls SET outcome = ? WHERE id = ?');
  const since = db.prepare('SELECT at FROM upstream_calls WHERE account = ? AND at >= ? ORDER BY at').pluck();
  const allSince = db.prepare('SELECT at FROM upstream_calls WHERE at >= ? ORDER BY at').pluck();
  const setBlock = db.prepare(
    'INSERT INTO upstream_blocks (account, until) VALUES (?, ?) ON CONFLICT(account) DO UPDATE SET until = max(until, excluded.until)',
  );
  const getBlock = db.prepare('SELECT until FROM upstream_blocks WHERE account = ?').pluck();
  const pruneCalls = db.prepare('DELETE FROM upstream_calls WHERE at < ?');
  const pruneBlocks = db.prepare('DELETE FROM upstream_blocks WHERE until < ?');

  return {
    async recordCall(account, at, kind) {
      return Number(insert.run(account, at, kind).lastInsertRowid);
    },
    async finishCall(id, outcome) {
      finish.run(outcome, id);
    },
    async callsSince(account, from) {
      return since.all(account, from) as number[];
    },
    async allCallsSince(from) {
      return allSince.all(from) as number[];
    },
    async setBlockedUntil(account, until) {
      setBlock.run(account, until);
    },
    async getBlockedUntil(account) {
      const until = getBlock.get(account) as number | undefined;
      return until ?? null;
    },
    async prune(before) {
      pruneCalls.run(before);
      pruneBlocks.run(before);
    },
  };
}

/** The ledger on the Kysely store (SQLite or PostgreSQL alike). */
export function createLedger(db: Kysely<Database>): LedgerStore {
  return {
    async recordCall(account, at, kind) {
      const row = await db.insertInto('upstream_calls').values({ account, at, kind }).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },
    async finishCall(id, outcome) {
      await db.updateTable('upstream_calls').set({ outcome }).where('id', '=', id).execute();
    },
    async callsSince(account, since) {
      const rows = await db.selectFrom('upstream_calls').select('at').where('account', '=', account).where('at', '>=', since).orderBy('at').execute();
      return rows.map((r) => r.at);
    },
    async allCallsSince(since) {
      const rows = await db.selectFrom('upstream_calls').select('at').where('at', '>=', since).orderBy('at').execute();
      return rows.map((r) => r.at);
    },
    async setBlockedUntil(account, until) {
      // A block only ever grows: an earlier 429's later "until" is not shortened by a newer one.
      await db
        .insertInto('upstream_blocks')
        .values({ account, until })
        .onConflict((oc) => oc.column('account').doUpdateSet({ until: greaterOf('excluded.until', 'upstream_blocks.until') }))
        .execute();
    },
    async getBlockedUntil(account) {
      const row = await db.selectFrom('upstream_blocks').select('until').where('account', '=', account).executeTakeFirst();
      return row?.until ?? null;
    },
    async prune(before) {
      await db.deleteFrom('upstream_calls').where('at', '<', before).execute();
      await db.deleteFrom('upstream_blocks').where('until', '<', before).execute();
    },
  };
}
