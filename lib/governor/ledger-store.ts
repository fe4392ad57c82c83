import 'server-only';
/**
 * The durable ledger of upstream calls. A call is written before it is sent and counts whatever
 * its outcome (shared/upstream/notes.md: assume failed calls count), so a restart never forgets a
 * call and the next call after a restart cannot break a window. Only a call known never to have
 * been sent is deleted again (withdrawCall). The same rows serve every
 * instance when the store is PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';
import { callClassOf } from './classes';
import type { CallLedger } from './memory-backend';
import type { Database } from '../db/schema';
import { greaterOf } from '../db/greater-of';

export interface LedgerStore extends CallLedger {
  /** Forgets calls older than `before` (they are outside every window) and holds that ended. */
  prune(before: number): Promise<void>;
  /** Calls sent for each team person on the account since `since` (at most two days back: prune). */
  callsByPerson(account: string, since: number): Promise<Map<string, number>>;
}

export function createLedger(db: Kysely<Database>): LedgerStore {
  return {
    async recordCall(call) {
      const row = await db
        .insertInto('upstream_calls')
        .values({ account: call.account, at: call.at, kind: call.kind, class: call.cls, person: call.person ?? null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async finishCall(id, outcome, at) {
      // The call counts from its answer on (lib/governor/backend.ts); never moved earlier.
      await db
        .updateTable('upstream_calls')
        .set({ outcome, at: sql<number>`case when at > ${at} then at else ${at} end` })
        .where('id', '=', id)
        .execute();
    },
    async withdrawCall(id) {
      await db.deleteFrom('upstream_calls').where('id', '=', id).execute();
    },
    async callsSince(since) {
      const rows = await db
        .selectFrom('upstream_calls')
        .select(['account', 'at', 'class'])
        .where('at', '>=', since)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ account: r.account, at: r.at, cls: callClassOf(r.class) }));
    },
    async setBlockedUntil(account, until) {
      // A block only ever grows: an earlier 429's later "until" is not shortened by a newer one.
      await db
        .insertInto('upstream_blocks')
        .values({ account, until })
        .onConflict((oc) =>
          oc.column('account').doUpdateSet({ until: greaterOf('excluded.until', 'upstream_blocks.until') }),
        )
        .execute();
    },
    async blocksAfter(now) {
      const rows = await db
        .selectFrom('upstream_blocks')
        .select(['account', 'until'])
        .where('until', '>', now)
        .execute();
      return new Map(rows.map((r) => [r.account, r.until]));
    },
    async callsByPerson(account, since) {
      const rows = await db
        .selectFrom('upstream_calls')
        .select(['person', (eb) => eb.fn.countAll<number>().as('n')])
        .where('account', '=', account)
        .where('at', '>=', since)
        .where('person', 'is not', null)
        .groupBy('person')
        .execute();
      return new Map(rows.map((r) => [r.person as string, Number(r.n)]));
    },
    async prune(before) {
      await db.deleteFrom('upstream_calls').where('at', '<', before).execute();
      await db.deleteFrom('upstream_blocks').where('until', '<', before).execute();
    },
  };
}
