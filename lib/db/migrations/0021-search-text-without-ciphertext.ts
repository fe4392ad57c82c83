import 'server-only';
/**
 * The free text of the records copied before lib/cdr/record-columns.ts stopped searching an
 * encrypted message's ciphertext (`message_body` of a record whose `msg_encrypted` is true): their
 * search text is written again from their stored bodies, the readable text kept, the ciphertext
 * left out. SQLite's trigram index follows through its update trigger (0017); PostgreSQL's by
 * itself. Other records are not touched. Uses the live rules (recordColumns, storedSearchText) once,
 * at upgrade: what they write is what every newly copied record gets.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { recordColumns } from '../../cdr/record-columns';
import type { Cdr } from '../../cdr/schema';
import { storedSearchText } from './search-text';
import type { SqlDialect } from './column-types';

/** Records read and written per statement. */
const BATCH = 500;

export function searchTextWithoutCiphertextMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      let after = 0;
      for (;;) {
        // Bodies as the upstream sent them (JSON.stringify): true as a string or as a boolean.
        const { rows } = await sql<{ id: number; body: string; search_text: string }>`
          select r.id, b.body, r.search_text from history_records r join history_bodies b on b.id = r.id
          where r.id > ${after} and (b.body like '%"msg_encrypted":"true"%' or b.body like '%"msg_encrypted":true%')
          order by r.id limit ${BATCH}`.execute(db);
        if (rows.length === 0) return;
        for (const row of rows) {
          const columns = recordColumns(JSON.parse(row.body) as Cdr);
          if (!columns) continue;
          const text = storedSearchText(columns.search_text, dialect);
          if (text !== row.search_text)
            await sql`update history_records set search_text = ${text} where id = ${row.id}`.execute(db);
        }
        after = Number(rows[rows.length - 1]!.id);
      }
    },
  };
}
