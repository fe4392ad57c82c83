import 'server-only';
/**
 * The vault as the rest of the server reads it in team mode. A team person's session does not hold
 * the account's secret: it names the team account, and every read of it takes that account's key,
 * enterprise and sealed secret from the team's store — one copy of each secret, so an admin's
 * replacement reaches every session (and every instance) at its next token renewal.
 *
 * Background work of a team account (exports, the local history) renews its token with a live
 * session's secret; the server holds a team account's secret itself, so when nobody of the team is
 * signed in it stands in: such work does not stop at the last sign-out as a personal account's does.
 */
import type { VaultEntry, VaultStore } from '../auth/server';
import { HOUR_MS } from '../time/units';
import type { TeamAccountRecord, TeamAccountStore } from './team-accounts';

/** The sid of the stand-in session of a team account (never a cookie's: those are UUIDs). */
export const standInSid = (accountId: string) => `team-account:${accountId}`;

export function teamAwareVault(vault: VaultStore, accounts: Pick<TeamAccountStore, 'get' | 'list'>): VaultStore {
  /** The entry with its team account's key, enterprise and secret; as it is for a personal session. */
  const filled = async (entry: VaultEntry | null): Promise<VaultEntry | null> => {
    if (!entry?.team) return entry;
    const account = await accounts.get(entry.team.account);
    // The account was removed (its sessions are moved first: ./team-service.ts): nothing to renew with.
    if (!account) return { ...entry, sealedSecret: '' };
    return { ...entry, apiKey: account.apiKey, enterpriseId: account.enterpriseId, sealedSecret: account.sealedSecret };
  };
  const allFilled = async (entries: VaultEntry[]) => (await Promise.all(entries.map(filled))) as VaultEntry[];
  const standIn = (account: TeamAccountRecord, now: number): VaultEntry => ({
    sid: standInSid(account.id),
    apiKey: account.apiKey,
    enterpriseId: account.enterpriseId,
    sealedSecret: account.sealedSecret,
    // A secret refused upstream is only tried again once replaced (liveSession's createdAfter).
    createdAt: account.updatedAt,
    expiresAt: now + HOUR_MS,
  });
  return {
    ...vault,
    get: async (sid, now) => filled(await vault.get(sid, now)),
    forApiKey: async (apiKey) => allFilled(await vault.forApiKey(apiKey)),
    forPerson: async (person) => allFilled(await vault.forPerson(person)),
    async liveSession(apiKey, now, opts = {}) {
      const live = await filled(await vault.liveSession(apiKey, now, opts));
      if (live?.sealedSecret) return live;
      const held = (await accounts.list()).find(
        (a) => a.apiKey === apiKey && a.updatedAt > (opts.createdAfter ?? Number.NEGATIVE_INFINITY),
      );
      return held ? standIn(held, now) : live;
    },
  };
}
