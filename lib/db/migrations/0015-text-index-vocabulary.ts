import 'server-only';
/**
 * The vocabulary of SQLite's trigram index as a table (fts5vocab, one row per term): a search of
 * two wide characters is the trigrams that start with them (lib/history/store/history-search.ts ftsMatch),
 * found as a range of its sorted terms. It replaces the pairs of wide characters the copy used to
 * append to every record's text, which made the index about 40 % larger and each stored page
 * slower. PostgreSQL's trigram index answers ILIKE of any length and needs nothing.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from './column-types';

export function textIndexVocabularyMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite')
        await sql`create virtual table history_fts_vocab using fts5vocab(history_fts, 'row')`.execute(db);
    },
  };
}
