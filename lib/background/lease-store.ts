import 'server-only';
/**
 * Leases on background work, shared by every instance through the store: `tryAcquire` takes a free
 * or expired lease (or renews one the holder already has) in one statement, so two instances can
 * never both hold it; a holder that dies stops renewing and the lease frees itself.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface LeaseStore {
  /** Takes (or renews) the lease on `resource` for `holder` until now + ttl; false when another holds it. */
  tryAcquire(resource: string, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease back (only the holder's own). */
  release(resource: string, holder: string): Promise<void>;
  /** Who holds the lease now, or null. */
  holderOf(resource: string, now: number): Promise<string | null>;
}

export function createLeaseStore(db: Kysely<Database>): LeaseStore {
  return {
    async tryAcquire(resource, holder, now, ttlMs) {
      const row = await db
        .insertInto('leases')
        .values({ resource, holder, expires_at: now + ttlMs })
        .onConflict((oc) =>
          oc
            .column('resource')
            .doUpdateSet({ holder, expires_at: now + ttlMs })
            .where((eb) => eb.or([eb('leases.expires_at', '<=', now), eb('leases.holder', '=', holder)])),
        )
        .returning('holder')
        .executeTakeFirst();
      return row?.holder === holder;
    },
    async release(resource, holder) {
      await db.deleteFrom('leases').where('resource', '=', resource).where('holder', '=', holder).execute();
    },
    async holderOf(resource, now) {
      const row = await db
        .selectFrom('leases')
        .select('holder')
        .where('resource', '=', resource)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row?.holder ?? null;
    },
  };
}
