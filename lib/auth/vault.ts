import 'server-only';
/**
 * Server-side sessions: which account a browser session signed in as, and the API secret needed to
 * renew the upstream's 15-minute token without asking the person again. The secret is stored
 * encrypted (lib/auth/secret-box.ts) and deleted at sign-out or when the session expires; the
 * browser only ever holds a session id inside next-auth's encrypted cookie.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface VaultEntry {
  sid: string;
  apiKey: string;
  enterpriseId: string | null;
  /** The sealed API secret (never the plain one). */
  sealedSecret: string;
  createdAt: number;
  expiresAt: number;
}

export interface VaultStore {
  put(entry: VaultEntry): Promise<void>;
  get(sid: string, now: number): Promise<VaultEntry | null>;
  delete(sid: string): Promise<void>;
  /** Sessions still open for an API key (the upstream token is shared between them). */
  countForApiKey(apiKey: string, now: number): Promise<number>;
  /**
   * A live session of the API key whose secret background work (exports, the local history) can
   * renew tokens with: `preferSid` when it is still open, else the newest; with `createdAfter`, only
   * one signed in after that moment (the older ones' secret was refused).
   */
  liveSession(
    apiKey: string,
    now: number,
    opts?: { preferSid?: string; createdAfter?: number | null },
  ): Promise<VaultEntry | null>;
  /**
   * Ends these sessions (their rows and sealed secrets go) and remembers why until each would have
   * expired (endedReason): the key's other browsers are told on their next request. How many ended.
   */
  endSessions(entries: readonly VaultEntry[], reason: string): Promise<number>;
  /** Why the session `sid` was ended by endSessions, while it would still be alive; null otherwise. */
  endedReason(sid: string, now: number): Promise<string | null>;
  /** Every session of an API key, live or not yet pruned. */
  forApiKey(apiKey: string): Promise<VaultEntry[]>;
  prune(now: number): Promise<void>;
}

/** A sessions row as a vault entry. */
export function toVaultEntry(row: Database['sessions'] | undefined): VaultEntry | null {
  return row
    ? {
        sid: row.sid,
        apiKey: row.api_key,
        enterpriseId: row.enterprise_id,
        sealedSecret: row.sealed_secret,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      }
    : null;
}

/** The vault on the Kysely store (SQLite or PostgreSQL alike). */
export function createVault(db: Kysely<Database>): VaultStore {
  return {
    async put(e) {
      // A session put again replaces the stored one whole.
      await db
        .insertInto('sessions')
        .values({
          sid: e.sid,
          api_key: e.apiKey,
          enterprise_id: e.enterpriseId,
          sealed_secret: e.sealedSecret,
          created_at: e.createdAt,
          expires_at: e.expiresAt,
        })
        .onConflict((oc) =>
          oc.column('sid').doUpdateSet((eb) => ({
            api_key: eb.ref('excluded.api_key'),
            enterprise_id: eb.ref('excluded.enterprise_id'),
            sealed_secret: eb.ref('excluded.sealed_secret'),
            created_at: eb.ref('excluded.created_at'),
            expires_at: eb.ref('excluded.expires_at'),
          })),
        )
        .execute();
    },
    async get(sid, now) {
      return toVaultEntry(
        await db
          .selectFrom('sessions')
          .selectAll()
          .where('sid', '=', sid)
          .where('expires_at', '>', now)
          .executeTakeFirst(),
      );
    },
    async delete(sid) {
      await db.deleteFrom('sessions').where('sid', '=', sid).execute();
    },
    async countForApiKey(apiKey, now) {
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('api_key', '=', apiKey)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return row.n;
    },
    async liveSession(apiKey, now, opts = {}) {
      const live = db
        .selectFrom('sessions')
        .selectAll()
        .where('api_key', '=', apiKey)
        .where('expires_at', '>', now)
        .where('created_at', '>', opts.createdAfter ?? -1);
      const preferred = opts.preferSid ? await live.where('sid', '=', opts.preferSid).executeTakeFirst() : undefined;
      return toVaultEntry(preferred ?? (await live.orderBy('created_at', 'desc').limit(1).executeTakeFirst()));
    },
    async endSessions(entries, reason) {
      if (entries.length === 0) return 0;
      return db.transaction().execute(async (trx) => {
        const sids = entries.map((e) => e.sid);
        const result = await trx.deleteFrom('sessions').where('sid', 'in', sids).executeTakeFirst();
        await trx
          .insertInto('ended_sessions')
          .values(entries.map((e) => ({ sid: e.sid, reason, expires_at: e.expiresAt })))
          .onConflict((oc) => oc.column('sid').doUpdateSet((eb) => ({ reason: eb.ref('excluded.reason') })))
          .execute();
        return Number(result.numDeletedRows);
      });
    },
    async endedReason(sid, now) {
      const row = await db
        .selectFrom('ended_sessions')
        .select('reason')
        .where('sid', '=', sid)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row?.reason ?? null;
    },
    async forApiKey(apiKey) {
      const rows = await db.selectFrom('sessions').selectAll().where('api_key', '=', apiKey).execute();
      return rows.map((r) => toVaultEntry(r)!);
    },
    async prune(now) {
      await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
      await db.deleteFrom('ended_sessions').where('expires_at', '<=', now).execute();
    },
  };
}
