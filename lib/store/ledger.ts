import 'server-only';
/**
 * The durable ledger of upstream calls. A call is written before it is sent and counts whatever
 * its outcome (shared/upstream/notes.md: assume failed calls count), so a restart never forgets a
 * call and the next call after a restart cannot break a window.
 */
import type { CallClass } from '../governor/classes';
import type { CallLedger } from '../governor/memory-backend';
import type { Db } from './db';

export interface LedgerStore extends CallLedger {
  /** Forgets calls older than `before` (they are outside every window) and holds that ended. */
  prune(before: number): Promise<void>;
}

export function createSqliteLedger(db: Db): LedgerStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS upstream_calls (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account TEXT NOT NULL,
      at INTEGER NOT NULL,
      kind TEXT NOT NULL,
      class TEXT NOT NULL DEFAULT 'interactive',
      outcome TEXT
    );
    CREATE INDEX IF NOT EXISTS upstream_calls_at ON upstream_calls (at);
    CREATE TABLE IF NOT EXISTS upstream_blocks (
      account TEXT PRIMARY KEY,
      until INTEGER NOT NULL
    );
  `);
  const insert = db.prepare('INSERT INTO upstream_calls (account, at, kind, class) VALUES (?, ?, ?, ?)');
  const finish = db.prepare('UPDATE upstream_calls SET outcome = ? WHERE id = ?');
  const since = db.prepare('SELECT account, at, class AS cls FROM upstream_calls WHERE at >= ? ORDER BY at, id');
  const setBlock = db.prepare(
    'INSERT INTO upstream_blocks (account, until) VALUES (?, ?) ON CONFLICT(account) DO UPDATE SET until = max(until, excluded.until)',
  );
  const blocks = db.prepare('SELECT account, until FROM upstream_blocks WHERE until > ?');
  const pruneCalls = db.prepare('DELETE FROM upstream_calls WHERE at < ?');
  const pruneBlocks = db.prepare('DELETE FROM upstream_blocks WHERE until < ?');

  return {
    async recordCall(call) {
      return Number(insert.run(call.account, call.at, call.kind, call.cls).lastInsertRowid);
    },
    async finishCall(id, outcome) {
      finish.run(outcome, id);
    },
    async callsSince(from) {
      return since.all(from) as { account: string; at: number; cls: CallClass }[];
    },
    async setBlockedUntil(account, until) {
      setBlock.run(account, until);
    },
    async blocksAfter(now) {
      return new Map((blocks.all(now) as { account: string; until: number }[]).map((r) => [r.account, r.until]));
    },
    async prune(before) {
      pruneCalls.run(before);
      pruneBlocks.run(before);
    },
  };
}
