import 'server-only';
/**
 * PostgreSQL's free text: `search_text ILIKE '%…%'` on the record's row, answered by a pg_trgm GIN
 * index of the scope's own records (`history_records_text_<scope number>`, partial on the scope:
 * made with the scope's number, ./scopes.ts). One index of every scope would give each search of
 * a common text every account's matches to read and throw away; the scope's own holds its own
 * only. The planner picks it because every search names its scope number as a literal
 * (./scopes.ts scopeNoSql), which a partial index's condition must be seen to match.
 */
import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { log } from '../../log';
import { joinRanges, type TimeRange } from '../../query/ranges';
import { idsOfList, likeLiteral, textNeedles, type TextIds, type TextIndex } from './text-search';

type Q = Kysely<Database> | Transaction<Database>;

/** The scope's trigram index (empty when made with its number: instant). */
export async function ensurePostgresTextIndex(q: Q, scopeNo: number): Promise<void> {
  const no = Number(scopeNo);
  await sql
    .raw(
      `create index if not exists history_records_text_${no} on history_records using gin (search_text gin_trgm_ops) where scope_no = ${no}`,
    )
    .execute(q);
}

/** The record's text holds any of the forms (ILIKE: case-insensitive, as the trigram index reads it). */
function holdsAny(needles: readonly string[]): Expression<SqlBool> {
  const one = (n: string) => sql<SqlBool>`search_text ilike ${`%${likeLiteral(n)}%`} escape '\\'`;
  return needles.length === 1 ? one(needles[0]!) : sql<SqlBool>`(${sql.join(needles.map(one), sql` or `)})`;
}

/**
 * pg_trgm makes trigrams of the characters the database's LC_CTYPE calls letters: under C or POSIX
 * that is ASCII alone, and Japanese text is then read record by record, never found through the
 * index. Said once, with what to do.
 */
async function checkLocale(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ ctype: string }>`select current_setting('lc_ctype') as ctype`.execute(db);
  const ctype = rows[0]?.ctype ?? '';
  if (/^(c|posix)$/i.test(ctype))
    log.warn('history.text_locale', {
      lcCtype: ctype,
      effect:
        'free text in Japanese is read record by record: pg_trgm indexes only the letters of LC_CTYPE, ASCII alone under C',
      fix: "create the database with a UTF-8 LC_CTYPE (CREATE DATABASE … LC_CTYPE 'C.UTF-8' TEMPLATE template0) and restore into it",
    });
}

export function postgresTextIndex(db: Kysely<Database>): TextIndex {
  let checked: Promise<void> | null = null;
  return {
    needsIds: false,
    async matchIds(scopeNo: number, ranges: readonly TimeRange[], text: string): Promise<TextIds> {
      checked ??= checkLocale(db).catch(() => undefined);
      if (ranges.length === 0) return new Float64Array(0);
      const no = sql.lit(Number(scopeNo));
      const within = joinRanges(ranges).map((r) => sql<SqlBool>`received_ms between ${r.from} and ${r.to}`);
      const { rows } = await sql<{ ids: string | null }>`select string_agg(id::text, ',') as ids from history_records
        where scope_no = ${no} and (${sql.join(within, sql` or `)}) and ${holdsAny(textNeedles(text))}`.execute(db);
      return idsOfList(rows[0]?.ids);
    },
    condition: (text) => holdsAny(textNeedles(text)),
  };
}
