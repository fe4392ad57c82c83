import 'server-only';
/**
 * A team person's role, read again from the identity provider once it is older than
 * TEAM_ROLE_TTL_SECONDS, at their next request: a role changed there takes effect here then, and a
 * person in no group any more (or whose sign-in there was ended) is signed out, every session of
 * theirs, told why. One request reads it for the session — the one that claims the reading in the
 * store, whichever instance it reaches — and the others go on with the role as it stands.
 *
 * When the provider cannot be asked at all (down, unreachable), the person keeps the role last read
 * and it is asked again half a minute later: an outage of the provider does not stop the team's
 * work. A suspension is the dashboard's own and does not wait for any of this.
 */
import type { Claims, OidcClient, SignedInAccount, VaultStore } from '../auth/server';
import {
  endPersonSessions,
  IdentityProviderUnavailableError,
  openTokens,
  sealTokens,
  unauthenticated,
} from '../auth/server';
import type { Config } from '../config';
import type { Logger } from '../log';
import { isRole } from './api';
import type { AuditStore } from './audit-store';
import type { PeopleStore } from './people-store';
import { groupsOf } from './sign-in';
import { roleOfGroups, type RoleGroups } from './roles';

/** How soon a role is asked again after the provider could not be asked. */
export const RETRY_UNREACHABLE_MS = 30_000;

export interface RoleCheckDeps {
  config: Pick<Config, 'OIDC_GROUPS_CLAIM' | 'TEAM_ROLE_TTL_SECONDS'>;
  roles: RoleGroups;
  people: PeopleStore;
  audit: AuditStore;
  vault: VaultStore;
  oidc: Pick<OidcClient, 'readClaimsAgain' | 'userinfo'>;
  now: () => number;
  log: Logger;
}

/** The account with its role confirmed (read again when due); throws a 401 problem when the session ended. */
export async function confirmRole(deps: RoleCheckDeps, account: SignedInAccount): Promise<SignedInAccount> {
  const team = account.team;
  if (!team) return account;
  const now = deps.now();
  const ttlMs = deps.config.TEAM_ROLE_TTL_SECONDS * 1000;
  if (now - team.roleCheckedAt < ttlMs) return account;
  // Another request (of any instance) reads it: this one goes on with the role as it stands.
  if (!(await deps.vault.claimRoleCheck(account.sid, team.roleCheckedAt, now))) return account;

  const tokens = openTokens(team.sealedTokens);
  let read: Awaited<ReturnType<OidcClient['readClaimsAgain']>>;
  let groups: string[] = [];
  try {
    read = await deps.oidc.readClaimsAgain(tokens, team.person, now);
    if (read !== 'refused')
      groups = await groupsOf(read.claims, deps.config.OIDC_GROUPS_CLAIM, read.tokens.accessToken, deps.oidc);
  } catch (err) {
    if (!(err instanceof IdentityProviderUnavailableError)) throw err;
    deps.log.warn('team.role_unconfirmed', { person: team.person, error: err.message });
    await deps.vault.updateTeamSession(account.sid, { roleCheckedAt: now - ttlMs + RETRY_UNREACHABLE_MS });
    return account;
  }
  const person = await deps.people.get(team.person);
  const name = person?.name ?? team.person;
  if (read === 'refused') {
    const ended = await deps.vault.endSessions(
      [{ ...(await sessionEntry(deps.vault, account.sid, now)) }],
      'role-unconfirmed',
    );
    deps.log.info('team.role_unconfirmed_signed_out', { person: team.person, sessions: ended });
    throw unauthenticated('role-unconfirmed');
  }
  const role = roleOfGroups(groups, deps.roles);
  const claims: Claims = read.claims;
  if (!role) {
    await deps.people.seen({ id: team.person, name, email: person?.email ?? null, role: null }, now);
    await deps.audit.append({
      at: now,
      actor: team.person,
      actorName: name,
      role: team.role,
      action: 'role-seen',
      detail: `${team.role} \u2192 none: signed out`,
    });
    await endPersonSessions(deps.vault, team.person, 'role-removed');
    throw unauthenticated('role-removed');
  }
  if (role !== team.role) {
    await deps.audit.append({
      at: now,
      actor: team.person,
      actorName: name,
      role,
      action: 'role-seen',
      detail: `${isRole(team.role) ? team.role : 'none'} \u2192 ${role}`,
    });
  }
  await deps.people.seen(
    { id: team.person, name, email: typeof claims.email === 'string' ? claims.email : (person?.email ?? null), role },
    now,
  );
  await deps.vault.updateTeamSession(account.sid, { role, roleCheckedAt: now, sealedTokens: sealTokens(read.tokens) });
  return { ...account, team: { ...team, role, roleCheckedAt: now } };
}

/** The session's own entry, to end it (the vault reads it whole). */
async function sessionEntry(vault: VaultStore, sid: string, now: number) {
  const entry = await vault.get(sid, now);
  if (!entry) throw unauthenticated();
  return entry;
}
