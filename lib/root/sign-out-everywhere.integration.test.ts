/**
 * "Sign out everywhere" leaves nothing that can call the upstream as the key: every session ends,
 * and the secrets its local histories kept to go on copying while signed out are deleted, the
 * option turned off; the copies wait for the next sign-in, and say so. Another key's kept secret stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../tests/support/service-harness';
import { authSecret } from '../auth/auth-secret';
import { seal } from '../auth/secret-box';
import { scopeOf } from '../history';

const NOW = Date.now();
let h: Harness;

async function signedIn(apiKey: string, sid: string, enterpriseId: string | null) {
  await h.store.vault.put({
    sid,
    apiKey,
    enterpriseId,
    sealedSecret: seal(`${apiKey}-secret`, authSecret()),
    createdAt: NOW,
    expiresAt: NOW + 3600_000,
  });
  return { ...h.account(apiKey, enterpriseId), sid };
}

beforeAll(async () => {
  h = await startHarness({ sim: { days: 5, perDay: 50 } });
});
afterAll(async () => {
  await h?.close();
});

describe('sign out everywhere', () => {
  it('deletes the secrets kept to copy while signed out, of every enterprise of the key, and only of that key', async () => {
    const support = await signedIn('support', 'sid-support-1', 'ent-fuji');
    const supportOther = await signedIn('support', 'sid-support-2', 'ent-minato');
    const fuji = await signedIn('fuji', 'sid-fuji', 'ent-fuji');
    // Copying while signed out, asked for on two copies of support and one of fuji (the copies themselves left off).
    for (const account of [support, supportOther, fuji])
      expect((await h.history.put(account, { keepSyncingSignedOut: true })).keepSyncingSignedOut).toBe(true);
    const keptOf = async (account: { apiKey: string; enterpriseId: string | null }) =>
      (await h.store.history.getSettings(scopeOf(account).key))?.sealedSecret ?? null;
    expect(await keptOf(support)).not.toBeNull();

    expect(await h.signOutEverywhere('support')).toEqual({ ended: 2, keptSecretsDeleted: 2 });

    expect(await keptOf(support)).toBeNull();
    expect(await keptOf(supportOther)).toBeNull();
    expect(await h.store.vault.forApiKey('support')).toEqual([]);
    // Turned on again, the sync says (here in English) it waits for a sign-in: nothing is kept to sync with.
    const state = await h.history.put(support, { enabled: true }, 'en');
    expect(state.keepSyncingSignedOut).toBe(false);
    expect(state.state).toBe('waiting');
    expect(state.message).toMatch(/Waiting for a sign-in/);
    // Another key keeps its own.
    expect(await keptOf(fuji)).not.toBeNull();
  });
});
