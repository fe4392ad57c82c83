import 'server-only';
/**
 * Ends every session of an API key at once: "sign out everywhere", or the upstream refusing the
 * key's stored secret at a token renewal (it was changed upstream; no session can renew with it).
 * The vault's entries go, so each session's cookie stops working on its next request (pages
 * redirect to sign-in, the API answers 401, /api/auth/session answers none), and the key's
 * upstream token is dropped from memory.
 */
import { log } from '../log';
import type { UpstreamGateway } from '../server/upstream-gateway';
import type { VaultStore } from '../store/vault';

export type SessionsEndReason = 'signed-out-everywhere' | 'credentials-refused';

export interface EndSessionsDeps {
  vault: VaultStore;
  gateway: Pick<UpstreamGateway, 'forget'>;
}

/** How many sessions ended; with `before`, only those signed in before it. */
export async function endSessions(deps: EndSessionsDeps, apiKey: string, reason: SessionsEndReason, before?: number): Promise<number> {
  const ended = await deps.vault.deleteForApiKey(apiKey, before);
  deps.gateway.forget(apiKey);
  log.info('sessions.ended', { account: apiKey, reason, sessions: ended });
  return ended;
}
