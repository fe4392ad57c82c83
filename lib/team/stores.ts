import 'server-only';
/** Team mode's stores on the durable store's database (SQLite or PostgreSQL alike). */
import type { Kysely } from 'kysely';
import type { Database, SqlDialect } from '../db/schema';
import { createAuditStore, type AuditStore } from './audit-store';
import { createPeopleStore, type PeopleStore } from './people-store';
import { createTeamAccountStore, type TeamAccountStore } from './team-accounts';

export interface TeamStores {
  people: PeopleStore;
  audit: AuditStore;
  accounts: TeamAccountStore;
}

export function createTeamStores(db: Kysely<Database>, dialect: SqlDialect): TeamStores {
  return { people: createPeopleStore(db), audit: createAuditStore(db, dialect), accounts: createTeamAccountStore(db) };
}
