import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import type { VaultEntry } from './vault';

const T0 = Date.UTC(2026, 10, 20);
const entry = (sid: string, apiKey: string, overrides: Partial<VaultEntry> = {}): VaultEntry => ({
  sid,
  apiKey,
  enterpriseId: null,
  sealedSecret: `sealed-${sid}`,
  createdAt: T0,
  expiresAt: T0 + 3600_000,
  ...overrides,
});

describe('the session vault', () => {
  forEachBackend((open) => {
    it('gives an open session back and nothing once it expired', async () => {
      const { vault } = await open();
      const e = entry('s1', 'demo', { enterpriseId: 'ent-sakura' });
      await vault.put(e);
      expect(await vault.get('s1', T0)).toEqual(e);
      expect(await vault.get('s1', T0 + 3600_000)).toBeNull();
      expect(await vault.get('nope', T0)).toBeNull();
    });

    it('replaces a session put again whole', async () => {
      const { vault } = await open();
      await vault.put(entry('s1', 'demo', { enterpriseId: 'ent-sakura' }));
      const renewed = entry('s1', 'demo', { sealedSecret: 'resealed', expiresAt: T0 + 7200_000 });
      await vault.put(renewed);
      expect(await vault.get('s1', T0)).toEqual(renewed);
    });

    it('deletes a session at sign-out', async () => {
      const { vault } = await open();
      await vault.put(entry('s1', 'demo'));
      await vault.delete('s1');
      expect(await vault.get('s1', T0)).toBeNull();
      await vault.delete('s1');
    });

    it('counts the open sessions of an API key', async () => {
      const { vault } = await open();
      await vault.put(entry('s1', 'demo'));
      await vault.put(entry('s2', 'demo', { expiresAt: T0 + 1000 }));
      await vault.put(entry('f1', 'fuji'));
      expect(await vault.countForApiKey('demo', T0)).toBe(2);
      expect(await vault.countForApiKey('demo', T0 + 1000)).toBe(1);
      expect(await vault.countForApiKey('nobody', T0)).toBe(0);
    });

    it('lists and ends every session of an API key, and no other key', async () => {
      const { vault } = await open();
      await vault.put(entry('d1', 'demo', { createdAt: T0 }));
      await vault.put(entry('d2', 'demo', { createdAt: T0 + 5000 }));
      await vault.put(entry('f1', 'fuji'));
      expect((await vault.forApiKey('demo')).map((e) => e.sid).sort()).toEqual(['d1', 'd2']);
      expect(await vault.endSessions(await vault.forApiKey('demo'), 'signed-out-everywhere')).toBe(2);
      expect(await vault.countForApiKey('demo', T0)).toBe(0);
      expect(await vault.get('f1', T0)).not.toBeNull();
      expect(await vault.endSessions([], 'signed-out-everywhere')).toBe(0);
      // Each ended session's reason is kept until it would have expired, then pruned; none for others.
      expect(await vault.endedReason('d1', T0)).toBe('signed-out-everywhere');
      expect(await vault.endedReason('f1', T0)).toBeNull();
      const ends = entry('d1', 'demo').expiresAt;
      expect(await vault.endedReason('d1', ends)).toBeNull();
      await vault.prune(ends);
      expect(await vault.endedReason('d1', T0)).toBeNull();
    });

    it('drops the sessions that ended', async () => {
      const { vault } = await open();
      await vault.put(entry('ended', 'demo', { expiresAt: T0 }));
      await vault.put(entry('open', 'demo', { expiresAt: T0 + 1 }));
      await vault.prune(T0);
      expect(await vault.countForApiKey('demo', 0)).toBe(1);
      expect(await vault.get('open', 0)).not.toBeNull();
    });
    it('finds a live session of the API key: the preferred one first, else the newest, else none', async () => {
      const { vault } = await open();
      const entry = (sid: string, apiKey: string, createdAt: number, expiresAt: number) => ({
        sid,
        apiKey,
        enterpriseId: null,
        sealedSecret: 'x',
        createdAt,
        expiresAt,
      });
      expect(await vault.liveSession('demo', T0, { preferSid: 's1' })).toBeNull();
      await vault.put(entry('s1', 'demo', T0 - 10_000, T0 + 3600_000));
      await vault.put(entry('s2', 'demo', T0 - 5_000, T0 + 3600_000));
      await vault.put(entry('s0', 'demo', T0 - 20_000, T0 + 3600_000));
      await vault.put(entry('f1', 'fuji', T0, T0 + 3600_000));
      expect(await vault.liveSession('demo', T0, { preferSid: 's1' })).toEqual(
        entry('s1', 'demo', T0 - 10_000, T0 + 3600_000),
      );
      await vault.delete('s1');
      expect((await vault.liveSession('demo', T0, { preferSid: 's1' }))?.sid).toBe('s2');
      // After the upstream refused the credentials, only a later sign-in helps.
      expect(await vault.liveSession('demo', T0, { preferSid: 's1', createdAfter: T0 - 1_000 })).toBeNull();
      expect(await vault.liveSession('demo', T0 + 3600_000, { preferSid: 's1' })).toBeNull();
    });
  });
});
