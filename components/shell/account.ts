import type { Role } from '@/lib/team';

/** Who is signed in, as the shell shows it: never the session id or the secret. */
export interface ShellAccount {
  apiKey: string;
  enterpriseId?: string;
  /** The role (team mode); a personal session is the admin of its own account. */
  role: Role;
  /** A team person: their name and the team account they work on. */
  person?: { name: string; account: string };
}
