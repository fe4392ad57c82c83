import 'server-only';
/**
 * Ends every session of an API key at once: "sign out everywhere", or the upstream refusing the
 * key's stored secret at a token renewal (it was changed upstream; no session can renew with it).
 * The vault's entries go, so each session's cookie stops working on its next request: pages
 * redirect to sign-in saying why, the API answers 401 saying why (the vault keeps the reason until
 * the session would have expired), /api/auth/session answers none; and the key's upstream token
 * is dropped from memory.
 */
import type { SessionsEndReason } from './api';
import { log } from '../log';
import { authSecret } from './auth-secret';
import { unseal } from './secret-box';
import type { UpstreamGateway } from '../upstream/server';
import type { VaultStore } from './vault';

export interface EndSessionsDeps {
  vault: VaultStore;
  gateway: Pick<UpstreamGateway, 'forget'>;
}

/**
 * How many sessions ended. With `refusedSecret`, only those signed in with that secret: a session
 * signed in with the new one (before or after the refused renewal) stays. Only personal sessions:
 * a team person's session is not the key's owner's to end (its account's secret is an admin's to
 * replace, lib/team), and ends with its person (endPersonSessions).
 */
export async function endSessions(
  deps: EndSessionsDeps,
  apiKey: string,
  reason: SessionsEndReason,
  refusedSecret?: string,
): Promise<number> {
  const sessions = (await deps.vault.forApiKey(apiKey)).filter((entry) => !entry.team);
  const ending =
    refusedSecret === undefined
      ? sessions
      : sessions.filter((entry) => openedSecret(entry.sealedSecret) === refusedSecret);
  // Each of them is told why on its next request (accountFromCookies), not only "sign in first".
  const ended = await deps.vault.endSessions(ending, reason);
  deps.gateway.forget(apiKey);
  log.info('sessions.ended', { account: apiKey, reason, sessions: ended });
  return ended;
}

/**
 * Ends every session of a team person at once (suspended, no role any more, "sign out everywhere"):
 * their rows go, so every instance refuses their cookies from the next request on, told why.
 */
export async function endPersonSessions(vault: VaultStore, person: string, reason: SessionsEndReason): Promise<number> {
  const ended = await vault.endSessions(await vault.forPerson(person), reason);
  log.info('sessions.ended', { person, reason, sessions: ended });
  return ended;
}

/** A session's secret, or null when it cannot be opened (sealed under another server secret). */
function openedSecret(sealed: string): string | null {
  try {
    return unseal(sealed, authSecret());
  } catch {
    return null;
  }
}
