/**
 * Team mode as the browser (and any script) sees it: the roles, the audit log's actions and the
 * shapes of /api/team/* and /api/audit answers. Browser-safe: no secret, no store.
 */

/** The roles, from the least to the most a person may do (README, "Team mode"). */
export const ROLES = ['viewer', 'support', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value);
}

/** Whether `role` may do what `needed` may: roles are ordered, each may do all the ones before it may. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** Roles that see phone numbers masked and message text empty (every answer, CSV and export file). */
export function rolesMasked(role: Role): boolean {
  return role !== 'admin';
}

/** What the audit log records (README, "Team mode"). */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in-refused',
  'role-seen',
  'reveal',
  'export',
  'page-csv',
  'number-search',
  'suspend',
  'restore',
  'account-change',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return (AUDIT_ACTIONS as readonly unknown[]).includes(value);
}

/** One entry of GET /api/audit. Numbers appear only masked; the log keeps a keyed hash of each. */
export interface AuditEntry {
  id: number;
  /** ISO 8601, UTC. */
  at: string;
  /** The person (the identity provider's subject). */
  actor: string;
  /** Their name when it was written. */
  actorName: string;
  role: Role | string;
  action: AuditAction | string;
  /** The team account it was done on, by its label; null for what concerns no account (a sign-in). */
  account: string | null;
  trxId: string | null;
  reason: string | null;
  /** The query (its parameters, numbers masked) of a search, an export or a page's CSV. */
  query: string | null;
  /** What else the entry says (a role seen, whose suspension, which account changed how). */
  detail: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** The URL of the next (older) entries, null at the end. */
  next: string | null;
}

/** A person of the team as the People page shows them. */
export interface TeamPerson {
  id: string;
  name: string;
  email: string | null;
  /** The role last read from the identity provider. */
  role: Role | null;
  firstSeenAt: string;
  lastSeenAt: string;
  suspendedAt: string | null;
  suspendedBy: string | null;
  /** Upstream calls made for them on any team account in the last hour and the last 24 hours. */
  calls: { hour: number; day: number };
  /** Sessions they have open now. */
  sessions: number;
}

/** A team account as admins see it: never its secret. */
export interface TeamAccount {
  id: string;
  label: string;
  apiKey: string;
  enterpriseId: string | null;
  /** `env`: TEAM_API_KEY's (its secret may be replaced here; a changed environment replaces it again at start). */
  source: 'env' | 'admin';
  updatedAt: string;
}

/** Who is signed in, as a page may show it. */
export interface SignedInPersonView {
  name: string;
  role: Role;
  /** The team account in use, by its label. */
  account: string;
  /** The language kept with their profile (first for them everywhere); null until they pick one. */
  locale: 'ja' | 'en' | null;
}

/** The problem types of team mode a page acts on. */
export const ROLE_NEEDED_PROBLEM = '/problems/role-needed';
export const REVEAL_LIMIT_PROBLEM = '/problems/reveal-limit';
export const TEAM_SECRET_REFUSED_PROBLEM = '/problems/team-secret-refused';

/** A reveal's reason: long enough to say why, short enough to be a reason. */
export const REVEAL_REASON_MIN = 10;
export const REVEAL_REASON_MAX = 500;
