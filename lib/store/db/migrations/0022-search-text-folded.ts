import 'server-only';
/**
 * The free text of the records copied before free-text search folded what people type (NFKC:
 * lib/cdr/typed-text.ts searchFolded): a search now folds its text, so a record whose search text
 * holds full-width Latin letters or digits (ＯＲＤ), half-width katakana (ｻｸﾗ) or other
 * compatibility forms would no longer be found by them. Their search text is folded the same way.
 * Only records holding such a character are read (the compatibility blocks where Japanese text
 * has them), and only those whose text changes are written. SQLite's trigram index follows
 * through its update trigger (0017); PostgreSQL's by itself.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { searchFolded } from '../../../cdr/typed-text';
import type { SqlDialect } from './column-types';

/** Records read per statement. */
const BATCH = 1000;

/**
 * The Unicode blocks whose characters NFKC changes in Japanese text: enclosed alphanumerics (①),
 * number forms (Ⅻ), CJK compatibility (㍻, ㌔), half-width and full-width forms (ｻ, Ａ, ０).
 */
const BLOCKS: readonly [string, string][] = [
  ['\u2150', '\u218f'],
  ['\u2460', '\u24ff'],
  ['\u3300', '\u33ff'],
  ['\uff01', '\uffee'],
];

function holdsFoldable(dialect: SqlDialect) {
  if (dialect === 'postgres') return sql`search_text ~ ${`[${BLOCKS.map(([a, b]) => `${a}-${b}`).join('')}]`}`;
  return sql`search_text glob ${`*[${BLOCKS.map(([a, b]) => `${a}-${b}`).join('')}]*`}`;
}

export function searchTextFoldedMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      let after = 0;
      for (;;) {
        const { rows } = await sql<{ id: number; search_text: string }>`
          select id, search_text from history_records where id > ${after} and ${holdsFoldable(dialect)} order by id limit ${BATCH}`.execute(db);
        if (rows.length === 0) return;
        for (const row of rows) {
          const folded = searchFolded(row.search_text);
          if (folded !== row.search_text) await sql`update history_records set search_text = ${folded} where id = ${row.id}`.execute(db);
        }
        after = Number(rows[rows.length - 1]!.id);
      }
    },
  };
}
