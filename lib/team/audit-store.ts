import 'server-only';
/**
 * The audit log, append-only: what people of the team did, in the store every instance shares. The
 * interface has no update and no delete but retention (AUDIT_RETENTION_DAYS): an entry, once written,
 * stays as it was written. It holds no phone number or message text in clear: a number is a keyed
 * hash (./number-hash.ts), a query is written with its numbers masked (./audit-query.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Database, SqlDialect } from '../db/schema';

export interface AuditRecord {
  at: number;
  actor: string;
  actorName: string;
  role: string;
  action: string;
  account?: string | null;
  trxId?: string | null;
  reason?: string | null;
  query?: string | null;
  numberHash?: string | null;
  detail?: string | null;
}

export interface StoredAuditRecord extends AuditRecord {
  id: number;
}

export interface AuditFilter {
  /** Both inclusive (ms). */
  from?: number;
  to?: number;
  actor?: string;
  action?: string;
  numberHash?: string;
  /** Only entries older than this one (keyset paging, newest first). */
  before?: number;
}

export interface AuditStore {
  append(entry: AuditRecord): Promise<void>;
  /**
   * Appends `entry` unless the actor already has `limit` entries of its action since `since`: the
   * count and the write are one step for every instance (a per-person lock), so reveals sent at
   * once cannot pass the limit together. True when it was appended.
   */
  appendWithin(entry: AuditRecord, since: number, limit: number): Promise<boolean>;
  /** Entries of the actor's action since `since`, and when the oldest of them was written. */
  countSince(actor: string, action: string, since: number): Promise<{ count: number; oldest: number | null }>;
  /** Newest first. */
  list(filter: AuditFilter, limit: number): Promise<StoredAuditRecord[]>;
  /** Retention: forgets entries written before `before`. */
  prune(before: number): Promise<void>;
}

type Row = Database['team_audit'];

function toRow(e: AuditRecord): Omit<Row, 'id'> {
  return {
    at: e.at,
    actor: e.actor,
    actor_name: e.actorName,
    role: e.role,
    action: e.action,
    account: e.account ?? null,
    trx_id: e.trxId ?? null,
    reason: e.reason ?? null,
    query: e.query ?? null,
    number_hash: e.numberHash ?? null,
    detail: e.detail ?? null,
  };
}

function fromRow(r: Row & { id: number }): StoredAuditRecord {
  return {
    id: Number(r.id),
    at: Number(r.at),
    actor: r.actor,
    actorName: r.actor_name,
    role: r.role,
    action: r.action,
    account: r.account,
    trxId: r.trx_id,
    reason: r.reason,
    query: r.query,
    numberHash: r.number_hash,
    detail: r.detail,
  };
}

/** A lock key of PostgreSQL's advisory locks for one actor (two 32-bit halves of a hash of its name). */
const LOCK_NS = 0x7a0d17;

export function createAuditStore(db: Kysely<Database>, dialect: SqlDialect): AuditStore {
  const countSince = async (trx: Kysely<Database>, actor: string, action: string, since: number) => {
    const row = await trx
      .selectFrom('team_audit')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('at').as('oldest')])
      .where('actor', '=', actor)
      .where('action', '=', action)
      .where('at', '>=', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldest: row.oldest === null ? null : Number(row.oldest) };
  };
  return {
    async append(entry) {
      await db.insertInto('team_audit').values(toRow(entry)).execute();
    },
    async appendWithin(entry, since, limit) {
      return db.transaction().execute(async (trx) => {
        // SQLite: one connection, and a transaction holds it whole. PostgreSQL: a lock per actor,
        // held until the transaction ends, so another instance's reveal waits for this count.
        if (dialect === 'postgres')
          await sql`select pg_advisory_xact_lock(${LOCK_NS}, hashtext(${entry.actor}))`.execute(trx);
        if ((await countSince(trx, entry.actor, entry.action, since)).count >= limit) return false;
        await trx.insertInto('team_audit').values(toRow(entry)).execute();
        return true;
      });
    },
    countSince: (actor, action, since) => countSince(db, actor, action, since),
    async list(filter, limit) {
      let q = db.selectFrom('team_audit').selectAll();
      if (filter.from !== undefined) q = q.where('at', '>=', filter.from);
      if (filter.to !== undefined) q = q.where('at', '<=', filter.to);
      if (filter.actor !== undefined) q = q.where('actor', '=', filter.actor);
      if (filter.action !== undefined) q = q.where('action', '=', filter.action);
      if (filter.numberHash !== undefined) q = q.where('number_hash', '=', filter.numberHash);
      if (filter.before !== undefined) q = q.where('id', '<', filter.before);
      const rows = await q.orderBy('id', 'desc').limit(limit).execute();
      return rows.map((r) => fromRow(r as Row & { id: number }));
    },
    async prune(before) {
      await db.deleteFrom('team_audit').where('at', '<', before).execute();
    },
  };
}
