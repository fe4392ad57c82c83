import 'server-only';
/**
 * Team mode (lib/team): the accounts the server holds for the team (their secrets sealed), the
 * people who signed in through the organisation's identity provider (and who is suspended), and
 * the audit log. Sessions learn whose they are (a person, the role last read from the provider and
 * when, the provider's tokens sealed, the team account in use); the governor's ledger learns which
 * person a call was made for, so each person's use of a shared account can be shown and kept fair.
 */
import type { Kysely, Migration } from 'kysely';
import { addIdColumn, columnTypes, type SqlDialect } from './column-types';

export function teamMigration(dialect: SqlDialect): Migration {
  const { epoch } = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('team_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('api_key', 'text', (c) => c.notNull())
        .addColumn('enterprise_id', 'text')
        // AES-256-GCM under NEXTAUTH_SECRET (lib/auth/secret-box.ts): never the secret itself.
        .addColumn('sealed_secret', 'text', (c) => c.notNull())
        // 'env' for the account of TEAM_API_KEY, 'admin' for one added on the admin page.
        .addColumn('source', 'text', (c) => c.notNull())
        // A keyed hash of TEAM_API_SECRET as last read at start: a changed environment replaces the
        // stored secret, an unchanged one leaves a secret an admin replaced since.
        .addColumn('env_secret_hash', 'text')
        .addColumn('created_at', epoch, (c) => c.notNull())
        .addColumn('updated_at', epoch, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('team_people')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('role', 'text')
        .addColumn('first_seen_at', epoch, (c) => c.notNull())
        .addColumn('last_seen_at', epoch, (c) => c.notNull())
        .addColumn('suspended_at', epoch)
        .addColumn('suspended_by', 'text')
        .execute();
      await addIdColumn(db.schema.createTable('team_audit'), dialect)
        .addColumn('at', epoch, (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('account', 'text')
        .addColumn('trx_id', 'text')
        .addColumn('reason', 'text')
        .addColumn('query', 'text')
        // A keyed hash of a phone number (lib/team/number-hash.ts): who looked a number up, never the number.
        .addColumn('number_hash', 'text')
        .addColumn('detail', 'text')
        .execute();
      await db.schema.createIndex('team_audit_at').on('team_audit').column('at').execute();
      await db.schema.createIndex('team_audit_actor').on('team_audit').columns(['actor', 'at']).execute();
      await db.schema.createIndex('team_audit_number').on('team_audit').columns(['number_hash', 'at']).execute();
      for (const column of ['person', 'role', 'role_checked_at', 'idp_tokens', 'team_account'] as const)
        await db.schema
          .alterTable('sessions')
          .addColumn(column, column === 'role_checked_at' ? epoch : 'text')
          .execute();
      await db.schema.createIndex('sessions_person').on('sessions').column('person').execute();
      await db.schema.alterTable('upstream_calls').addColumn('person', 'text').execute();
    },
  };
}
