import 'server-only';
/**
 * Whether a person the identity provider vouched for may come in, and the session they get: their
 * role from their groups (none: refused, with why), not suspended, on the team's first account. The
 * sign-in, a refusal and a role seen for the first time or changed are written to the audit log.
 */
import { randomUUID } from 'node:crypto';
import type { Claims, IdpTokens, OidcClient } from '../auth/server';
import { displayName, sealTokens } from '../auth/server';
import type { TeamSignIn, VaultEntry, VaultStore } from '../auth/server';
import type { Config } from '../config';
import type { Logger } from '../log';
import { HOUR_MS } from '../time/units';
import type { AuditStore } from './audit-store';
import type { PeopleStore } from './people-store';
import { groupsInClaim, roleOfGroups, type RoleGroups } from './roles';
import type { TeamAccountStore } from './team-accounts';

export interface SignInDeps {
  config: Pick<Config, 'OIDC_GROUPS_CLAIM' | 'SESSION_MAX_AGE_HOURS'>;
  roles: RoleGroups;
  people: PeopleStore;
  audit: AuditStore;
  accounts: Pick<TeamAccountStore, 'list'>;
  vault: Pick<VaultStore, 'put'>;
  oidc: Pick<OidcClient, 'userinfo'>;
  now: () => number;
  log: Logger;
}

/** The groups of the claims, or of userinfo when the ID token does not carry the claim. */
export async function groupsOf(
  claims: Claims,
  claim: string,
  accessToken: string | undefined,
  oidc: Pick<OidcClient, 'userinfo'>,
): Promise<string[]> {
  if (claims[claim] !== undefined || !accessToken) return groupsInClaim(claims[claim]);
  return groupsInClaim((await oidc.userinfo(accessToken))?.[claim]);
}

export async function admitPerson(
  deps: SignInDeps,
  claims: Claims,
  tokens: IdpTokens,
): ReturnType<TeamSignIn['admit']> {
  const now = deps.now();
  const sub = String(claims.sub ?? '');
  const name = displayName(claims, sub);
  const email = typeof claims.email === 'string' ? claims.email : null;
  const role = roleOfGroups(
    await groupsOf(claims, deps.config.OIDC_GROUPS_CLAIM, tokens.accessToken, deps.oidc),
    deps.roles,
  );
  const known = await deps.people.get(sub);
  const refuse = async (code: 'NoTeamRole' | 'Suspended', detail: string) => {
    await deps.audit.append({
      at: now,
      actor: sub,
      actorName: name,
      role: role ?? '',
      action: 'sign-in-refused',
      detail,
    });
    deps.log.info('signin.refused', { person: sub, reason: code });
    return { refused: code };
  };
  if (known?.suspendedAt) return refuse('Suspended', 'suspended');
  if (!role)
    return refuse('NoTeamRole', `no role: in none of the groups of ${deps.config.OIDC_GROUPS_CLAIM} configured`);
  const account = (await deps.accounts.list())[0];
  if (!account) {
    deps.log.error('signin.no_team_account', { person: sub });
    return { refused: 'SignInBroken' };
  }
  await deps.people.seen({ id: sub, name, email, role }, now);
  if (known?.role !== role)
    await deps.audit.append({
      at: now,
      actor: sub,
      actorName: name,
      role,
      action: 'role-seen',
      detail: known?.role ? `${known.role} \u2192 ${role}` : role,
    });
  const entry: VaultEntry = {
    sid: randomUUID(),
    apiKey: account.apiKey,
    enterpriseId: account.enterpriseId,
    // The account's secret stays with the account (./team-vault.ts): one copy, replaced in one place.
    sealedSecret: '',
    createdAt: now,
    expiresAt: now + deps.config.SESSION_MAX_AGE_HOURS * HOUR_MS,
    team: { person: sub, role, roleCheckedAt: now, sealedTokens: sealTokens(tokens), account: account.id },
  };
  await deps.vault.put(entry);
  await deps.audit.append({ at: now, actor: sub, actorName: name, role, action: 'sign-in', account: account.label });
  deps.log.info('signin.ok', { person: sub, role });
  return { entry, name };
}
