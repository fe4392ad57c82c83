import 'server-only';
/**
 * The people of the team: everyone who signed in through the identity provider, the role it gave
 * them last, and who is suspended. The provider decides who may sign in and in which role; a
 * suspension is the dashboard's own, an admin's "not here, now", kept until an admin restores them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface PersonRecord {
  id: string;
  name: string;
  email: string | null;
  role: string | null;
  firstSeenAt: number;
  lastSeenAt: number;
  suspendedAt: number | null;
  suspendedBy: string | null;
  /** The language they picked (a supported one: the route checks it), first for them everywhere; null until they pick. */
  locale: string | null;
}

export interface PeopleStore {
  /** Notes a sign-in (or a role read again): the person as the provider describes them now. */
  seen(
    person: { id: string; name: string; email: string | null; role: string | null },
    now: number,
  ): Promise<PersonRecord>;
  get(id: string): Promise<PersonRecord | null>;
  list(): Promise<PersonRecord[]>;
  /** Suspends (by: the admin) or restores (null) a person; false when there is no such person. */
  setSuspended(id: string, by: string | null, now: number): Promise<boolean>;
  /** Keeps the person's language with their profile; false when there is no such person. */
  setLocale(id: string, locale: string | null): Promise<boolean>;
}

function fromRow(r: Database['team_people']): PersonRecord {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role,
    firstSeenAt: Number(r.first_seen_at),
    lastSeenAt: Number(r.last_seen_at),
    suspendedAt: r.suspended_at === null ? null : Number(r.suspended_at),
    suspendedBy: r.suspended_by,
    locale: r.locale ?? null,
  };
}

export function createPeopleStore(db: Kysely<Database>): PeopleStore {
  const get = async (id: string) => {
    const row = await db.selectFrom('team_people').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : null;
  };
  return {
    async seen(person, now) {
      await db
        .insertInto('team_people')
        .values({
          id: person.id,
          name: person.name,
          email: person.email,
          role: person.role,
          first_seen_at: now,
          last_seen_at: now,
          suspended_at: null,
          suspended_by: null,
          locale: null,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({ name: person.name, email: person.email, role: person.role, last_seen_at: now }),
        )
        .execute();
      return (await get(person.id))!;
    },
    get,
    async list() {
      const rows = await db.selectFrom('team_people').selectAll().orderBy('name').execute();
      return rows.map(fromRow);
    },
    async setSuspended(id, by, now) {
      const result = await db
        .updateTable('team_people')
        .set(by === null ? { suspended_at: null, suspended_by: null } : { suspended_at: now, suspended_by: by })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async setLocale(id, locale) {
      const result = await db.updateTable('team_people').set({ locale }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
