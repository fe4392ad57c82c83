import 'server-only';
import { sql, type RawBuilder } from 'kysely';

/**
 * The larger of two columns, e.g. in an upsert that must never shorten a time. Written as CASE
 * because SQLite spells it max(a, b) and PostgreSQL greatest(a, b); CASE means the same in both.
 */
export function greaterOf(a: string, b: string): RawBuilder<number> {
  return sql<number>`case when ${sql.ref(a)} > ${sql.ref(b)} then ${sql.ref(a)} else ${sql.ref(b)} end`;
}
