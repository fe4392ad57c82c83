import 'server-only';
/**
 * Admitting a new export against its account's bounds, as one step: the account's active exports
 * (MAX_ACTIVE_EXPORTS) and the bytes its exports hold (EXPORT_MAX_BYTES_PER_ACCOUNT: finished files,
 * and the lines of those still being written) are counted and the job inserted in one transaction.
 * Counted and then inserted with awaits between, thirty requests at once would all read "9 active"
 * and all be let in; here they go one after another per account: on PostgreSQL under an advisory
 * lock named after the account (every instance takes the same one), on SQLite under the one
 * connection's transaction (one process per data folder).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, SqlDialect } from '../db/schema';
import { ACTIVE_EXPORT_STATES } from './api';
import type { ExportJobRecord } from './job-row';

export interface AdmissionLimits {
  maxActive: number;
  maxBytes: number;
}

export type Admission =
  | { admitted: true }
  | { admitted: false; by: 'active'; active: number }
  | { admitted: false; by: 'bytes'; bytes: number };

/** What the account's exports hold on the store, in bytes: finished files, and lines of those not finished. */
export async function accountExportBytes(q: Kysely<Database>, dialect: SqlDialect, account: string): Promise<number> {
  const files = await q
    .selectFrom('export_files as f')
    .innerJoin('export_jobs as j', 'j.id', 'f.job_id')
    .select(sql<number | string>`coalesce(sum(f.bytes), 0)`.as('n'))
    .where('j.account', '=', account)
    .executeTakeFirstOrThrow();
  // A line's bytes as UTF-8 (a Japanese character is three), as the file will hold it.
  const lineBytes = dialect === 'postgres' ? sql`octet_length(r.body)` : sql`length(cast(r.body as blob))`;
  const lines = await q
    .selectFrom('export_rows as r')
    .innerJoin('export_jobs as j', 'j.id', 'r.job_id')
    .select(sql<number | string>`coalesce(sum(${lineBytes}), 0)`.as('n'))
    .where('j.account', '=', account)
    .where('j.state', 'in', [...ACTIVE_EXPORT_STATES])
    .executeTakeFirstOrThrow();
  return Number(files.n) + Number(lines.n);
}

export async function admitJob(
  db: Kysely<Database>,
  dialect: SqlDialect,
  job: ExportJobRecord,
  owner: string,
  limits: AdmissionLimits,
): Promise<Admission> {
  return db.transaction().execute(async (trx: Transaction<Database>) => {
    if (dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(${`export-admission:${job.account}`}))`.execute(trx);
    const { n } = await trx
      .selectFrom('export_jobs')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('account', '=', job.account)
      .where('state', 'in', [...ACTIVE_EXPORT_STATES])
      .executeTakeFirstOrThrow();
    const active = Number(n);
    if (active >= limits.maxActive) return { admitted: false, by: 'active', active };
    const bytes = await accountExportBytes(trx, dialect, job.account);
    if (bytes >= limits.maxBytes) return { admitted: false, by: 'bytes', bytes };
    await trx
      .insertInto('export_jobs')
      .values({
        id: job.id,
        account: job.account,
        owner,
        state: job.state,
        created_at: job.createdAt,
        expires_at: job.expiresAt,
        data: JSON.stringify(job),
      })
      .execute();
    return { admitted: true };
  });
}
