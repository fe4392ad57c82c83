import 'server-only';
/**
 * Team mode's operations (README, "Team mode"): who a session's person is and in which role, the
 * audit log (written by the routes through `audit`, read by admins), reveals within their hourly
 * limit, the People page (each person's use of the shared accounts, suspensions) and the team's
 * accounts (added, their secret replaced, removed). A personal session is the admin of its own
 * account and writes nothing to the audit log: there is no team to account to.
 */
import type { OidcClient, SignedInAccount, TeamSignIn, VaultStore } from '../auth/server';
import { endPersonSessions, oidcProvider } from '../auth/server';
import type { Cdr } from '../cdr/schema';
import type { Config } from '../config';
import { notFound, ProblemError, TYPE_BASE } from '../http/problem';
import { isLocale, type Locale } from '../i18n/locales';
import { msg } from '../i18n/message';
import type { Logger } from '../log';
import { DAY_MS, HOUR_MS } from '../time/units';
import {
  isRole,
  rolesMasked,
  REVEAL_REASON_MAX,
  REVEAL_REASON_MIN,
  type AuditAction,
  type AuditEntry,
  type Role,
  type TeamAccount,
  type TeamPerson,
} from './api';
import { auditedQuery } from './audit-query';
import type { AuditFilter, AuditStore } from './audit-store';
import { numberHash } from './number-hash';
import type { PeopleStore } from './people-store';
import { presenterFor, type Presenter } from './presenter';
import { reasonProblem, revealLimitReached } from './problems';
import { confirmRole } from './role-check';
import { roleGroupsOf } from './roles';
import { admitPerson } from './sign-in';
import { ENV_ACCOUNT_ID, type TeamAccountRecord, type TeamAccountStore } from './team-accounts';

export interface TeamServiceDeps {
  config: Config;
  people: PeopleStore;
  audit: AuditStore;
  accounts: TeamAccountStore;
  /** The vault as the server reads it (./team-vault.ts). */
  vault: VaultStore;
  oidc: OidcClient;
  /** Calls made for each person on an API key since a moment (the governor's ledger). */
  callsByPerson(apiKey: string, since: number): Promise<Map<string, number>>;
  /** Drops the API key's upstream token on this instance (its secret was replaced). */
  forgetToken(apiKey: string): void;
  now: () => number;
  log: Logger;
}

/** What an audit entry says besides who, when and what. */
export interface AuditFields {
  trxId?: string;
  reason?: string;
  /** The request's query, in the codec's body form (lib/query `queryBody`). */
  query?: Readonly<Record<string, unknown>> | null;
  /** A full number looked up otherwise than by a query (a reveal: its record's). */
  number?: string;
  detail?: string;
}

/** The role of a session: a team person's as last read; a personal session is the admin of its own account. */
export function roleOf(account: Pick<SignedInAccount, 'team'>): Role {
  if (!account.team) return 'admin';
  return isRole(account.team.role) ? account.team.role : 'viewer';
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class TeamService {
  private readonly roles;

  constructor(private readonly deps: TeamServiceDeps) {
    this.roles = roleGroupsOf(deps.config);
  }

  /** Team mode is on: the identity provider is configured. */
  get enabled(): boolean {
    return Boolean(this.deps.config.OIDC_ISSUER);
  }

  /** At start: the environment's account into the store (its secret sealed). */
  async start(): Promise<void> {
    const { TEAM_API_KEY, TEAM_API_SECRET, TEAM_ENTERPRISE_ID } = this.deps.config;
    if (!TEAM_API_KEY || !TEAM_API_SECRET) return;
    const now = this.deps.now();
    const changed = await this.deps.accounts.syncFromEnvironment(
      { apiKey: TEAM_API_KEY, secret: TEAM_API_SECRET, enterpriseId: TEAM_ENTERPRISE_ID ?? null },
      now,
    );
    if (!changed) return;
    this.deps.forgetToken(TEAM_API_KEY);
    await this.deps.audit.append({
      at: now,
      actor: '(environment)',
      actorName: 'TEAM_API_KEY',
      role: 'admin',
      action: 'account-change',
      account: (await this.deps.accounts.get(ENV_ACCOUNT_ID))?.label ?? TEAM_API_KEY,
      detail: changed,
    });
  }

  /** next-auth's sign-in with the identity provider; null when team mode is off. */
  signIn(): TeamSignIn | null {
    if (!this.enabled) return null;
    const { deps } = this;
    return {
      provider: oidcProvider(deps.config),
      admit: (claims, tokens) =>
        admitPerson({ ...deps, roles: this.roles, accounts: deps.accounts, vault: deps.vault }, claims, tokens),
    };
  }

  /** The session with its role confirmed (read again from the provider when due). */
  confirm(account: SignedInAccount): Promise<SignedInAccount> {
    return confirmRole({ ...this.deps, roles: this.roles }, account);
  }

  presenter(account: Pick<SignedInAccount, 'team'>): Presenter {
    return presenterFor(roleOf(account));
  }

  /**
   * The account as an export sees its requester (lib/exports): a team person, whether they see
   * every export of the account (an admin) and whether their files are masked.
   */
  exportAccount<A extends SignedInAccount>(
    account: A,
  ): A & { requester?: { person: string; role: Role; seesAll: boolean; masked: boolean } } {
    if (!account.team) return account;
    const role = roleOf(account);
    return {
      ...account,
      requester: { person: account.team.person, role, seesAll: role === 'admin', masked: rolesMasked(role) },
    };
  }

  /** Writes an entry for a team person's action; nothing for a personal session. */
  async audit(account: SignedInAccount, action: AuditAction, fields: AuditFields = {}): Promise<void> {
    const team = account.team;
    if (!team) return;
    const query = auditedQuery(fields.query ?? null);
    await this.deps.audit.append({
      ...(await this.actorOf(account)),
      action,
      account: await this.accountLabel(team.account),
      trxId: fields.trxId ?? null,
      reason: fields.reason ?? null,
      query: query.query,
      numberHash: fields.number ? numberHash(fields.number) : query.numberHash,
      detail: fields.detail ?? null,
    });
  }

  /**
   * A reveal: the reason checked, the person's hourly limit kept (counted on the audit log, which
   * every instance shares), the record fetched and the reveal written — only then is the record
   * answered whole. A personal session reveals nothing it does not see already: the record as it is.
   */
  async reveal(account: SignedInAccount, trxId: string, reason: unknown, fetch: () => Promise<Cdr>): Promise<Cdr> {
    const text = typeof reason === 'string' ? reason.trim() : '';
    if (text.length < REVEAL_REASON_MIN || text.length > REVEAL_REASON_MAX)
      throw reasonProblem(REVEAL_REASON_MIN, REVEAL_REASON_MAX, text.length);
    const team = account.team;
    if (!team) return fetch();
    const limit = this.deps.config.REVEAL_LIMIT_PER_HOUR;
    const now = this.deps.now();
    // Refused before the record is fetched (it may cost a call) when the hour is used already.
    const used = await this.deps.audit.countSince(team.person, 'reveal', now - HOUR_MS);
    if (used.count >= limit) throw revealLimitReached(limit, (used.oldest ?? now) + HOUR_MS - now);
    const cdr = await fetch();
    const at = this.deps.now();
    const written = await this.deps.audit.appendWithin(
      {
        ...(await this.actorOf(account)),
        at,
        action: 'reveal',
        account: await this.accountLabel(team.account),
        trxId,
        reason: text,
        numberHash: cdr.to_address ? numberHash(cdr.to_address) : null,
      },
      at - HOUR_MS,
      limit,
    );
    if (!written) {
      const again = await this.deps.audit.countSince(team.person, 'reveal', at - HOUR_MS);
      throw revealLimitReached(limit, (again.oldest ?? at) + HOUR_MS - at);
    }
    this.deps.log.info('team.reveal', { person: team.person, trxId });
    return cdr;
  }

  // ---- The admin pages ---------------------------------------------------------------------

  async people(): Promise<TeamPerson[]> {
    const now = this.deps.now();
    const [people, accounts] = await Promise.all([this.deps.people.list(), this.deps.accounts.list()]);
    const keys = [...new Set(accounts.map((a) => a.apiKey))];
    const sum = async (since: number) => {
      const total = new Map<string, number>();
      for (const key of keys)
        for (const [person, n] of await this.deps.callsByPerson(key, since))
          total.set(person, (total.get(person) ?? 0) + n);
      return total;
    };
    const [hour, day] = await Promise.all([sum(now - HOUR_MS), sum(now - DAY_MS)]);
    return Promise.all(
      people.map(async (p) => ({
        id: p.id,
        name: p.name,
        email: p.email,
        role: isRole(p.role) ? p.role : null,
        firstSeenAt: iso(p.firstSeenAt)!,
        lastSeenAt: iso(p.lastSeenAt)!,
        suspendedAt: iso(p.suspendedAt),
        suspendedBy: p.suspendedBy,
        calls: { hour: hour.get(p.id) ?? 0, day: day.get(p.id) ?? 0 },
        sessions: (await this.deps.vault.forPerson(p.id)).filter((s) => s.expiresAt > now).length,
      })),
    );
  }

  /** Suspends a person at once: every session of theirs ends on every instance; their next sign-in is refused. */
  async suspend(admin: SignedInAccount, personId: string): Promise<TeamPerson> {
    if (admin.team?.person === personId)
      throw new ProblemError({
        type: `${TYPE_BASE}cannot-suspend-yourself`,
        title: msg('team.problems.cannotSuspendYourself.title'),
        status: 409,
        detail: msg('team.problems.cannotSuspendYourself.detail'),
      });
    const now = this.deps.now();
    const person = await this.deps.people.get(personId);
    if (!person || !(await this.deps.people.setSuspended(personId, admin.team?.person ?? admin.apiKey, now)))
      throw notFound(msg('team.problems.noPerson', { id: personId.slice(0, 100) }));
    const ended = await endPersonSessions(this.deps.vault, personId, 'suspended');
    await this.audit(admin, 'suspend', { detail: `${person.name} (${personId}); ${ended} sessions ended` });
    return this.person(personId);
  }

  async restore(admin: SignedInAccount, personId: string): Promise<TeamPerson> {
    const person = await this.deps.people.get(personId);
    if (!person || !(await this.deps.people.setSuspended(personId, null, this.deps.now())))
      throw notFound(msg('team.problems.noPerson', { id: personId.slice(0, 100) }));
    await this.audit(admin, 'restore', { detail: `${person.name} (${personId})` });
    return this.person(personId);
  }

  private async person(id: string): Promise<TeamPerson> {
    const found = (await this.people()).find((p) => p.id === id);
    if (!found) throw notFound(msg('team.problems.noPerson', { id: id.slice(0, 100) }));
    return found;
  }

  async accounts(): Promise<TeamAccount[]> {
    return (await this.deps.accounts.list()).map(accountView);
  }

  async addAccount(
    admin: SignedInAccount,
    input: { label: string; apiKey: string; enterpriseId: string | null; secret: string },
  ): Promise<TeamAccount> {
    const record = await this.deps.accounts.add(input, this.deps.now());
    await this.audit(admin, 'account-change', { detail: `added ${record.label}` });
    return accountView(record);
  }

  /** A new secret for an account: every session and instance renews with it from its next token renewal. */
  async replaceSecret(admin: SignedInAccount, id: string, secret: string): Promise<TeamAccount> {
    const record = await this.deps.accounts.get(id);
    if (!record || !(await this.deps.accounts.replaceSecret(id, secret, this.deps.now())))
      throw notFound(msg('team.problems.noAccount', { id: id.slice(0, 100) }));
    // This instance's token was got with the old secret: the next call gets one with the new.
    this.deps.forgetToken(record.apiKey);
    await this.audit(admin, 'account-change', { detail: `secret replaced for ${record.label}` });
    return accountView((await this.deps.accounts.get(id))!);
  }

  /** Removes an account added here; the sessions on it move to the environment's account. */
  async removeAccount(admin: SignedInAccount, id: string): Promise<void> {
    const record = await this.deps.accounts.get(id);
    if (!record) throw notFound(msg('team.problems.noAccount', { id: id.slice(0, 100) }));
    if (record.source === 'env')
      throw new ProblemError({
        type: `${TYPE_BASE}env-account`,
        title: msg('team.problems.envAccount.title'),
        status: 409,
        detail: msg('team.problems.envAccount.detail'),
      });
    const fallback = await this.deps.accounts.get(ENV_ACCOUNT_ID);
    if (fallback)
      await this.deps.vault.moveTeamSessions(
        { account: id },
        { account: fallback.id, apiKey: fallback.apiKey, enterpriseId: fallback.enterpriseId },
      );
    await this.deps.accounts.remove(id);
    await this.audit(admin, 'account-change', { detail: `removed ${record.label}` });
  }

  /** Moves the person's session to another team account. */
  async useAccount(account: SignedInAccount, id: string): Promise<TeamAccount> {
    const record = await this.deps.accounts.get(id);
    if (!record) throw notFound(msg('team.problems.noAccount', { id: id.slice(0, 100) }));
    await this.deps.vault.moveTeamSessions(
      { sid: account.sid },
      { account: record.id, apiKey: record.apiKey, enterpriseId: record.enterpriseId },
    );
    return accountView(record);
  }

  /** Keeps a team person's language with their own profile: it comes first for them on every device. */
  async setLocale(account: SignedInAccount, locale: Locale): Promise<void> {
    const team = account.team;
    if (!team) return;
    if (!(await this.deps.people.setLocale(team.person, locale)))
      throw notFound(msg('team.problems.noPerson', { id: team.person.slice(0, 100) }));
  }

  /** A page of the audit log, newest first, and the `before` of the next page (null at the end). */
  async auditLog(
    filter: AuditFilter & { number?: string },
    limit: number,
  ): Promise<{ entries: AuditEntry[]; before: number | null }> {
    const { number, ...rest } = filter;
    const rows = await this.deps.audit.list(
      { ...rest, ...(number ? { numberHash: numberHash(number) } : {}) },
      limit + 1,
    );
    const entries = rows.slice(0, limit).map((r) => ({
      id: r.id,
      at: new Date(r.at).toISOString(),
      actor: r.actor,
      actorName: r.actorName,
      role: r.role,
      action: r.action,
      account: r.account ?? null,
      trxId: r.trxId ?? null,
      reason: r.reason ?? null,
      query: r.query ?? null,
      detail: r.detail ?? null,
    }));
    return { entries, before: rows.length > limit ? entries[entries.length - 1]!.id : null };
  }

  /** Retention of the audit log (store maintenance, hourly). */
  async prune(): Promise<void> {
    await this.deps.audit.prune(this.deps.now() - this.deps.config.AUDIT_RETENTION_DAYS * DAY_MS);
  }

  /** Who the person is, for a page: their name, role and the team account they work on. */
  async whoIs(
    account: SignedInAccount,
  ): Promise<{ name: string; role: Role; account: string; locale: Locale | null } | null> {
    const team = account.team;
    if (!team) return null;
    const person = await this.deps.people.get(team.person);
    return {
      name: person?.name ?? team.person,
      role: roleOf(account),
      account: await this.accountLabel(team.account),
      locale: isLocale(person?.locale) ? person.locale : null,
    };
  }

  private async actorOf(account: SignedInAccount) {
    const team = account.team!;
    const person = await this.deps.people.get(team.person);
    return { at: this.deps.now(), actor: team.person, actorName: person?.name ?? team.person, role: roleOf(account) };
  }

  private async accountLabel(id: string): Promise<string> {
    return (await this.deps.accounts.get(id))?.label ?? id;
  }
}

function accountView(r: TeamAccountRecord): TeamAccount {
  return {
    id: r.id,
    label: r.label,
    apiKey: r.apiKey,
    enterpriseId: r.enterpriseId,
    source: r.source,
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}
