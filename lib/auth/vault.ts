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
  /** The sealed API secret (never the plain one); a team session's comes from its team account. */
  sealedSecret: string;
  createdAt: number;
  expiresAt: number;
  /** A team person's session (lib/team); absent for a personal one, signed in with the key and secret. */
  team?: TeamSession;
}

/** What a team person's session holds besides the account: who, in which role since when, and on what account. */
export interface TeamSession {
  /** The person (the identity provider's `sub`). */
  person: string;
  role: string;
  /** When the role was last read from the provider. */
  roleCheckedAt: number;
  /** The provider's tokens (refresh, access, expiry) as JSON, sealed; null when it gave none worth keeping. */
  sealedTokens: string | null;
  /** The team account (lib/team) the session works on. */
  account: string;
  /**
   * The language the person keeps with their profile (lib/team's people), read with the session
   * (one query: `get`), never written through it; null or absent when they have not picked one.
   */
  locale?: string | null;
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
  /** Every session of a team person, live or not yet pruned. */
  forPerson(person: string): Promise<VaultEntry[]>;
  /**
   * Claims the reading of a team session's role: moves roleCheckedAt from `seen` to `now` only if
   * nobody else did meanwhile (another request, another instance). True when this caller won.
   */
  claimRoleCheck(sid: string, seen: number, now: number): Promise<boolean>;
  /** Writes what a reading of the role found (the role, when, the provider's tokens, sealed). */
  updateTeamSession(sid: string, changes: Partial<Omit<TeamSession, 'person' | 'account' | 'locale'>>): Promise<void>;
  /**
   * Moves team sessions — one (`sid`), or every one on a team account (`account`) — to another team
   * account: its id, API key and enterprise. How many moved.
   */
  moveTeamSessions(
    which: { sid: string } | { account: string },
    to: { account: string; apiKey: string; enterpriseId: string | null },
  ): Promise<number>;
  prune(now: number): Promise<void>;
}

/** A sessions row as a vault entry. */
export function toVaultEntry(
  row: (Database['sessions'] & { person_locale?: string | null }) | undefined,
): VaultEntry | null {
  if (!row) return null;
  const entry: VaultEntry = {
    sid: row.sid,
    apiKey: row.api_key,
    enterpriseId: row.enterprise_id,
    sealedSecret: row.sealed_secret,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
  if (row.person !== null && row.person !== undefined)
    entry.team = {
      person: row.person,
      role: row.role ?? '',
      roleCheckedAt: row.role_checked_at ?? 0,
      sealedTokens: row.idp_tokens,
      account: row.team_account ?? '',
      ...(row.person_locale ? { locale: row.person_locale } : {}),
    };
  return entry;
}

/** A vault entry's team columns (all null for a personal session). */
function teamColumns(team: TeamSession | undefined) {
  return {
    person: team?.person ?? null,
    role: team?.role ?? null,
    role_checked_at: team?.roleCheckedAt ?? null,
    idp_tokens: team?.sealedTokens ?? null,
    team_account: team?.account ?? null,
  };
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
          ...teamColumns(e.team),
        })
        .onConflict((oc) =>
          oc.column('sid').doUpdateSet((eb) => ({
            api_key: eb.ref('excluded.api_key'),
            enterprise_id: eb.ref('excluded.enterprise_id'),
            sealed_secret: eb.ref('excluded.sealed_secret'),
            created_at: eb.ref('excluded.created_at'),
            expires_at: eb.ref('excluded.expires_at'),
            person: eb.ref('excluded.person'),
            role: eb.ref('excluded.role'),
            role_checked_at: eb.ref('excluded.role_checked_at'),
            idp_tokens: eb.ref('excluded.idp_tokens'),
            team_account: eb.ref('excluded.team_account'),
          })),
        )
        .execute();
    },
    async get(sid, now) {
      return toVaultEntry(
        await db
          .selectFrom('sessions')
          // A team person's language comes with their session: no second read to pick a request's.
          .leftJoin('team_people', 'team_people.id', 'sessions.person')
          .selectAll('sessions')
          .select('team_people.locale as person_locale')
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
    async forPerson(person) {
      const rows = await db.selectFrom('sessions').selectAll().where('person', '=', person).execute();
      return rows.map((r) => toVaultEntry(r)!);
    },
    async claimRoleCheck(sid, seen, now) {
      const result = await db
        .updateTable('sessions')
        .set({ role_checked_at: now })
        .where('sid', '=', sid)
        .where('role_checked_at', '=', seen)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async updateTeamSession(sid, changes) {
      const set: Partial<Database['sessions']> = {};
      if (changes.role !== undefined) set.role = changes.role;
      if (changes.roleCheckedAt !== undefined) set.role_checked_at = changes.roleCheckedAt;
      if (changes.sealedTokens !== undefined) set.idp_tokens = changes.sealedTokens;
      if (Object.keys(set).length === 0) return;
      await db.updateTable('sessions').set(set).where('sid', '=', sid).execute();
    },
    async moveTeamSessions(which, to) {
      const result = await db
        .updateTable('sessions')
        .set({ team_account: to.account, api_key: to.apiKey, enterprise_id: to.enterpriseId })
        .where('person', 'is not', null)
        .where((eb) => ('sid' in which ? eb('sid', '=', which.sid) : eb('team_account', '=', which.account)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async prune(now) {
      await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
      await db.deleteFrom('ended_sessions').where('expires_at', '<=', now).execute();
    },
  };
}
