import 'server-only';
/**
 * The role of the person a page is drawn for (the signed-in layout has checked the session): pages
 * a role may not open say so themselves (components/team/role-needed.tsx), as the API refuses them.
 */
import { roleAtLeast, type Role } from '../team';
import { roleOf } from '../team/server';
import { currentAccount } from './page-session';

export async function pageRole(): Promise<Role> {
  const account = await currentAccount();
  // The layout sent anyone without a session to sign in; a session ended since gets the least.
  return account ? roleOf(account) : 'viewer';
}

/** The page's role, and whether it is at least `least`. */
export async function pageAllows(least: Role): Promise<{ role: Role; allowed: boolean }> {
  const role = await pageRole();
  return { role, allowed: roleAtLeast(role, least) };
}
