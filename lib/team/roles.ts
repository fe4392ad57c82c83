/**
 * A person's role, from the groups the identity provider says they are in: the groups of each role
 * are configured (TEAM_ADMIN_GROUPS, TEAM_SUPPORT_GROUPS, TEAM_VIEWER_GROUPS), and a person in
 * several roles' groups has the highest. Someone in none of them has no role: they may not sign in.
 */
import type { Config } from '../config';
import type { Role } from './api';

export type RoleGroups = Record<Role, ReadonlySet<string>>;

const groupsOf = (list: string) =>
  new Set(
    list
      .split(',')
      .map((g) => g.trim())
      .filter((g) => g !== ''),
  );

export function roleGroupsOf(
  config: Pick<Config, 'TEAM_ADMIN_GROUPS' | 'TEAM_SUPPORT_GROUPS' | 'TEAM_VIEWER_GROUPS'>,
): RoleGroups {
  return {
    admin: groupsOf(config.TEAM_ADMIN_GROUPS),
    support: groupsOf(config.TEAM_SUPPORT_GROUPS),
    viewer: groupsOf(config.TEAM_VIEWER_GROUPS),
  };
}

/**
 * The groups a claim holds. Providers write it as a list of names (Keycloak, Okta, Entra), some as
 * one comma- or space-separated string; a Keycloak group path (`/sms/admins`) counts by its whole
 * path and by its last name, so either may be configured.
 */
export function groupsInClaim(claim: unknown): string[] {
  const names =
    typeof claim === 'string'
      ? claim.split(/[,\s]+/)
      : Array.isArray(claim)
        ? claim.filter((g): g is string => typeof g === 'string')
        : [];
  return names.flatMap((g) => {
    const name = g.trim();
    if (name === '') return [];
    const last = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    return last !== name && last !== '' ? [name, last] : [name];
  });
}

/** The highest role any of the groups gives; null when none does. */
export function roleOfGroups(groups: readonly string[], roles: RoleGroups): Role | null {
  for (const role of ['admin', 'support', 'viewer'] as const) if (groups.some((g) => roles[role].has(g))) return role;
  return null;
}
