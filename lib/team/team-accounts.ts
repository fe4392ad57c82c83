import 'server-only';
/**
 * The accounts the server holds for the team: an API key, its enterprise and its secret, sealed
 * (AES-256-GCM under NEXTAUTH_SECRET, lib/auth/secret-box.ts) — the browser never sees a secret,
 * nor does any answer or log line. One comes from the environment (TEAM_API_KEY), more from the admin
 * page. A secret replaced by an admin takes effect at the next token renewal of every instance: the
 * sessions read it from here (./team-vault.ts), there is no copy to update.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { authSecret, fingerprint, seal, unseal } from '../auth/server';
import type { Database } from '../db/schema';

/** The id of the account TEAM_API_KEY configures. */
export const ENV_ACCOUNT_ID = 'env';

export interface TeamAccountRecord {
  id: string;
  label: string;
  apiKey: string;
  enterpriseId: string | null;
  sealedSecret: string;
  source: 'env' | 'admin';
  createdAt: number;
  updatedAt: number;
}

export interface TeamAccountStore {
  list(): Promise<TeamAccountRecord[]>;
  get(id: string): Promise<TeamAccountRecord | null>;
  /**
   * The environment's account, at start: created, or brought up to date. Its secret is replaced only
   * when TEAM_API_SECRET changed since the last start, so a secret an admin replaced since (and the
   * environment not yet) is not put back. What changed, for the audit log; null when nothing did.
   */
  syncFromEnvironment(
    env: { apiKey: string; secret: string; enterpriseId: string | null },
    now: number,
  ): Promise<string | null>;
  add(
    account: { label: string; apiKey: string; enterpriseId: string | null; secret: string },
    now: number,
  ): Promise<TeamAccountRecord>;
  /** False when there is no such account. */
  replaceSecret(id: string, secret: string, now: number): Promise<boolean>;
  /** Removes an account added on the admin page (the environment's stays); false when there is none such. */
  remove(id: string): Promise<boolean>;
}

function fromRow(r: Database['team_accounts']): TeamAccountRecord {
  return {
    id: r.id,
    label: r.label,
    apiKey: r.api_key,
    enterpriseId: r.enterprise_id,
    sealedSecret: r.sealed_secret,
    source: r.source,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** An account's name where none was given: its key, and its enterprise when it has one. */
export function defaultLabel(apiKey: string, enterpriseId: string | null): string {
  return enterpriseId ? `${apiKey} (${enterpriseId})` : apiKey;
}

/** The secret of a stored account, opened; null when it cannot be (NEXTAUTH_SECRET changed since it was sealed). */
export function openSecret(account: Pick<TeamAccountRecord, 'sealedSecret'>): string | null {
  return unseal(account.sealedSecret, authSecret());
}

export function createTeamAccountStore(db: Kysely<Database>): TeamAccountStore {
  const get = async (id: string) => {
    const row = await db.selectFrom('team_accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : null;
  };
  return {
    async list() {
      const rows = await db.selectFrom('team_accounts').selectAll().orderBy('created_at').orderBy('id').execute();
      // The environment's first: it is the one people start on.
      return rows.map(fromRow).sort((a, b) => Number(b.id === ENV_ACCOUNT_ID) - Number(a.id === ENV_ACCOUNT_ID));
    },
    get,
    async syncFromEnvironment(env, now) {
      const hash = fingerprint(`team-secret\n${env.secret}`);
      const label = defaultLabel(env.apiKey, env.enterpriseId);
      const stored = await db
        .selectFrom('team_accounts')
        .selectAll()
        .where('id', '=', ENV_ACCOUNT_ID)
        .executeTakeFirst();
      if (!stored) {
        await db
          .insertInto('team_accounts')
          .values({
            id: ENV_ACCOUNT_ID,
            label,
            api_key: env.apiKey,
            enterprise_id: env.enterpriseId,
            sealed_secret: seal(env.secret, authSecret()),
            source: 'env',
            env_secret_hash: hash,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return 'created from TEAM_API_KEY';
      }
      const keyChanged = stored.api_key !== env.apiKey || stored.enterprise_id !== env.enterpriseId;
      const secretChanged = stored.env_secret_hash !== hash || unseal(stored.sealed_secret, authSecret()) === null;
      if (!keyChanged && !secretChanged) return null;
      await db
        .updateTable('team_accounts')
        .set({
          label,
          api_key: env.apiKey,
          enterprise_id: env.enterpriseId,
          ...(secretChanged || keyChanged
            ? { sealed_secret: seal(env.secret, authSecret()), env_secret_hash: hash }
            : {}),
          updated_at: now,
        })
        .where('id', '=', ENV_ACCOUNT_ID)
        .execute();
      return keyChanged ? 'TEAM_API_KEY or TEAM_ENTERPRISE_ID changed' : 'TEAM_API_SECRET changed';
    },
    async add(account, now) {
      const id = randomUUID();
      await db
        .insertInto('team_accounts')
        .values({
          id,
          label: account.label || defaultLabel(account.apiKey, account.enterpriseId),
          api_key: account.apiKey,
          enterprise_id: account.enterpriseId,
          sealed_secret: seal(account.secret, authSecret()),
          source: 'admin',
          env_secret_hash: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return (await get(id))!;
    },
    async replaceSecret(id, secret, now) {
      const result = await db
        .updateTable('team_accounts')
        .set({ sealed_secret: seal(secret, authSecret()), updated_at: now })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async remove(id) {
      const result = await db
        .deleteFrom('team_accounts')
        .where('id', '=', id)
        .where('source', '=', 'admin')
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
