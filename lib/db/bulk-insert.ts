import 'server-only';
/**
 * Multi-row INSERTs whose SQL is built by Kysely once per statement and row count, then reused
 * with new values. Building a hundred rows' INSERT through the query builder (parsing each row's
 * values, visiting every node, compiling) costs about as much as SQLite's own work to insert them,
 * and an export or a search writes such a statement for every page it reads.
 *
 * Kysely gives an INSERT's parameters row by row, each row's values in its columns' order. The
 * text is kept only when the compiled parameters are exactly that (the rest of the statement, its
 * ON CONFLICT for example, takes no value), so a statement this cannot reuse safely is simply
 * built every time.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';

/** Runs compiled queries: a Kysely instance or one of its transactions. */
type Executor = Pick<Kysely<unknown>, 'executeQuery' | 'getExecutor'>;

/**
 * SQL texts by statement name and row count (null: the statement takes other values too, never
 * reused), per database adapter: SQLite's text is not PostgreSQL's. A transaction shares its
 * database's adapter.
 */
const textsByAdapter = new WeakMap<object, Map<string, string | null>>();

/** A statement per name: the text of one table's INSERT with the same shape every time. */
export type BulkInsertName = string;

function valuesOf(rows: readonly Record<string, unknown>[], columns: readonly string[]): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) for (const column of columns) values.push(row[column]);
  return values;
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Runs `build(rows)`, an INSERT of `rows` (every row with the same keys, in the same order), with
 * its SQL text reused for every later call of the same `name` and row count.
 */
export async function bulkInsert<R = unknown>(
  q: Executor,
  name: BulkInsertName,
  rows: readonly Record<string, unknown>[],
  build: () => Compilable<R>,
): Promise<QueryResult<R>> {
  const columns = rows.length > 0 ? Object.keys(rows[0]!) : [];
  const key = `${name}\u0000${rows.length}\u0000${columns.join(',')}`;
  const adapter = q.getExecutor().adapter;
  let texts = textsByAdapter.get(adapter);
  if (!texts) textsByAdapter.set(adapter, (texts = new Map()));
  const text = texts.get(key);
  if (text) return q.executeQuery(CompiledQuery.raw(text, valuesOf(rows, columns)) as CompiledQuery<R>);
  const compiled = build().compile();
  if (text === undefined)
    texts.set(key, sameValues(compiled.parameters, valuesOf(rows, columns)) ? compiled.sql : null);
  return q.executeQuery(compiled);
}
