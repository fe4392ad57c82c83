import 'server-only';
/**
 * Failed sign-ins, per subject: the failures of the subject's current streak and when the last one
 * happened; and the addresses each key signed in from lately. What they mean (when a wait applies, how long, when a streak is forgotten) is
 * lib/auth/throttle-rules.ts's business; this store only keeps them, and lets the throttle read
 * and change a subject's streak as one step — across requests and, on PostgreSQL, across
 * instances — so two attempts at once cannot both take the last one a key is allowed.
 */
import type { Kysely } from 'kysely';
import type { Database, SqlDialect } from '../db/schema';

export interface FailureStreak {
  failures: number;
  /** When the last failure of the streak happened (ms). */
  lastFailureAt: number;
}

/** What `update` does with a subject's streak: `next` null forgets it, undefined leaves it as it is. */
export interface StreakChange<T> {
  next?: FailureStreak | null;
  result: T;
}

export interface SignInAttemptStore {
  /** The streaks of these subjects; a subject without one is absent. */
  read(subjects: readonly string[]): Promise<Map<string, FailureStreak>>;
  /** Reads a subject's streak and writes what `change` makes of it, with no other change to it in between. */
  update<T>(subject: string, change: (current: FailureStreak | null) => StreakChange<T>): Promise<T>;
  /** Forgets the streaks whose last failure is before `before`, and the addresses remembered until before `now`. */
  prune(before: number, now: number): Promise<void>;
  /** Remembers an address a key signed in from (`pair`: their keyed hash) until `until`. */
  rememberAddress(pair: string, until: number): Promise<void>;
  /** Whether that pair is remembered at `now`. */
  isKnownAddress(pair: string, now: number): Promise<boolean>;
}

type Row = Database['sign_in_attempts'];

const streakOf = (row: Pick<Row, 'failures' | 'last_failure_at'> | undefined): FailureStreak | null =>
  row && row.failures > 0 ? { failures: row.failures, lastFailureAt: row.last_failure_at } : null;

export function createSignInAttemptStore(db: Kysely<Database>, dialect: SqlDialect): SignInAttemptStore {
  return {
    async read(subjects) {
      if (subjects.length === 0) return new Map();
      const rows = await db
        .selectFrom('sign_in_attempts')
        .selectAll()
        .where('subject', 'in', [...subjects])
        .execute();
      const out = new Map<string, FailureStreak>();
      for (const row of rows) {
        const streak = streakOf(row);
        if (streak) out.set(row.subject, streak);
      }
      return out;
    },

    update(subject, change) {
      return db.transaction().execute(async (trx) => {
        // PostgreSQL: a row to lock even for a subject seen for the first time (two first attempts
        // at once then queue on it). SQLite: the store's one connection runs one transaction at a time.
        if (dialect === 'postgres') {
          await trx
            .insertInto('sign_in_attempts')
            .values({ subject, failures: 0, last_failure_at: 0 })
            .onConflict((oc) => oc.column('subject').doNothing())
            .execute();
        }
        let select = trx
          .selectFrom('sign_in_attempts')
          .select(['failures', 'last_failure_at'])
          .where('subject', '=', subject);
        if (dialect === 'postgres') select = select.forUpdate();
        const current = streakOf(await select.executeTakeFirst());
        const { next, result } = change(current);
        if (next === null || (next === undefined && current === null)) {
          await trx.deleteFrom('sign_in_attempts').where('subject', '=', subject).execute();
        } else if (next !== undefined) {
          await trx
            .insertInto('sign_in_attempts')
            .values({ subject, failures: next.failures, last_failure_at: next.lastFailureAt })
            .onConflict((oc) =>
              oc.column('subject').doUpdateSet({ failures: next.failures, last_failure_at: next.lastFailureAt }),
            )
            .execute();
        }
        return result;
      });
    },

    async prune(before, now) {
      await db.deleteFrom('sign_in_attempts').where('last_failure_at', '<', before).execute();
      await db.deleteFrom('sign_in_known_addresses').where('until', '<', now).execute();
    },

    async rememberAddress(pair, until) {
      await db
        .insertInto('sign_in_known_addresses')
        .values({ pair, until })
        .onConflict((oc) => oc.column('pair').doUpdateSet({ until }))
        .execute();
    },

    async isKnownAddress(pair, now) {
      const row = await db
        .selectFrom('sign_in_known_addresses')
        .select('until')
        .where('pair', '=', pair)
        .executeTakeFirst();
      return row !== undefined && Number(row.until) >= now;
    },
  };
}
