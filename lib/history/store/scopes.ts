import 'server-only';
/**
 * Scope numbers (history_scopes, migration 0040-history-compact): the local history's data names a
 * scope by a small integer, given by the history writer the first time it stores a record of the
 * scope, and never given to another (a deleted local history keeps its number: a number read once stays
 * true, so readers keep them in memory).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, SqlDialect } from '../../db/schema';
import { ensurePostgresTextIndex } from './text-postgres';

type Q = Kysely<Database> | Transaction<Database>;

/** A reader's scope numbers: known ones from memory, the rest asked once they exist. */
export interface ScopeNumbers {
  /** The scope's number, or null when it has never had a record (nothing of it to search). */
  numberOf(scope: string): Promise<number | null>;
}

export function createScopeNumbers(db: Kysely<Database>): ScopeNumbers {
  const known = new Map<string, number>();
  return {
    async numberOf(scope) {
      const cached = known.get(scope);
      if (cached !== undefined) return cached;
      const row = await db
        .selectFrom('history_scopes')
        .select('scope_no')
        .where('scope', '=', scope)
        .executeTakeFirst();
      if (!row) return null;
      const no = Number(row.scope_no);
      known.set(scope, no);
      return no;
    },
  };
}

/**
 * The scope's number, given now when it has none (the writer, before its first record). On
 * PostgreSQL the scope's own trigram index of free text is made with it (empty yet: instant).
 */
export async function ensureScopeNumber(q: Q, dialect: SqlDialect, scope: string): Promise<number> {
  const found = await q.selectFrom('history_scopes').select('scope_no').where('scope', '=', scope).executeTakeFirst();
  if (found) return Number(found.scope_no);
  await q
    .insertInto('history_scopes')
    .values({ scope })
    .onConflict((oc) => oc.column('scope').doNothing())
    .execute();
  const row = await q
    .selectFrom('history_scopes')
    .select('scope_no')
    .where('scope', '=', scope)
    .executeTakeFirstOrThrow();
  const no = Number(row.scope_no);
  if (dialect === 'postgres') await ensurePostgresTextIndex(q, no);
  return no;
}

/** A scope number as SQL: a literal (an integer the store gave), so PostgreSQL can pick the scope's own index. */
export const scopeNoSql = (scopeNo: number) => sql.lit(Number(scopeNo));
