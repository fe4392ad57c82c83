/**
 * A team person's language kept with their profile (migration 0044), on both backends: written and
 * read back by the people store, kept when they sign in again, and read with their session by the
 * vault (one query: the language of each request of theirs costs no read of its own).
 */
import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import { createPeopleStore } from './people-store';

const T0 = Date.UTC(2026, 11, 8);
const AIKO = { id: 'aiko', name: 'Aiko', email: null, role: 'sms-support' };

describe("a team person's language", () => {
  forEachBackend((open) => {
    it('is kept with their profile, null until they pick one, and survives a sign-in', async () => {
      const store = await open();
      const people = createPeopleStore(store.db);
      expect((await people.seen(AIKO, T0)).locale).toBeNull();
      expect(await people.setLocale('aiko', 'en')).toBe(true);
      expect((await people.get('aiko'))?.locale).toBe('en');
      // A sign-in again (the provider's name and role read anew) leaves the choice as it was.
      await people.seen({ ...AIKO, name: 'Aiko S.' }, T0 + 1000);
      expect(await people.get('aiko')).toMatchObject({ name: 'Aiko S.', locale: 'en' });
      expect(await people.setLocale('aiko', 'ja')).toBe(true);
      expect((await people.get('aiko'))?.locale).toBe('ja');
      expect(await people.setLocale('nobody', 'en')).toBe(false);
    });

    it("comes with the person's session from the vault; a personal session has none", async () => {
      const store = await open();
      const people = createPeopleStore(store.db);
      await people.seen(AIKO, T0);
      const team = { person: 'aiko', role: 'support', roleCheckedAt: T0, sealedTokens: null, account: 'env' };
      const base = { apiKey: 'demo', enterpriseId: null, sealedSecret: 's', createdAt: T0, expiresAt: T0 + 3600_000 };
      await store.vault.put({ ...base, sid: 'team-1', team });
      await store.vault.put({ ...base, sid: 'own-1' });
      expect((await store.vault.get('team-1', T0))?.team?.locale).toBeUndefined();
      await people.setLocale('aiko', 'en');
      expect((await store.vault.get('team-1', T0))?.team).toEqual({ ...team, locale: 'en' });
      expect(await store.vault.get('own-1', T0)).toEqual({ ...base, sid: 'own-1' });
    });
  });
});
