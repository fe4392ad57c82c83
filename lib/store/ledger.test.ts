import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';

const T0 = Date.UTC(2026, 10, 20);

describe('the ledger', () => {
  forEachBackend((open) => {
    it('records calls per account and for the deployment, oldest first, as epoch-ms numbers', async () => {
      const { ledger } = await open();
      const first = await ledger.recordCall('demo', T0 + 2000, 'query');
      const second = await ledger.recordCall('fuji', T0 + 1000, 'query');
      await ledger.recordCall('demo', T0 - 1000, 'token');
      expect(typeof first).toBe('number');
      expect(second).toBeGreaterThan(first);
      expect(await ledger.callsSince('demo', T0)).toEqual([T0 + 2000]);
      expect(await ledger.allCallsSince(T0)).toEqual([T0 + 1000, T0 + 2000]);
      expect(await ledger.allCallsSince(0)).toEqual([T0 - 1000, T0 + 1000, T0 + 2000]);
    });

    it('counts a call whatever its outcome', async () => {
      const { ledger } = await open();
      const id = await ledger.recordCall('demo', T0, 'query');
      await ledger.finishCall(id, 'error');
      expect(await ledger.callsSince('demo', T0)).toEqual([T0]);
    });

    it('keeps what it recorded across a restart', async () => {
      const first = await open();
      await first.ledger.recordCall('demo', T0, 'query');
      await first.ledger.setBlockedUntil('demo', T0 + 60_000);
      await first.close();
      const again = await open();
      expect(await again.ledger.callsSince('demo', 0)).toEqual([T0]);
      expect(await again.ledger.getBlockedUntil('demo')).toBe(T0 + 60_000);
    });

    it('never shortens a block', async () => {
      const { ledger } = await open();
      expect(await ledger.getBlockedUntil('demo')).toBeNull();
      await ledger.setBlockedUntil('demo', T0 + 60_000);
      await ledger.setBlockedUntil('demo', T0 + 10_000);
      expect(await ledger.getBlockedUntil('demo')).toBe(T0 + 60_000);
      await ledger.setBlockedUntil('demo', T0 + 90_000);
      expect(await ledger.getBlockedUntil('demo')).toBe(T0 + 90_000);
      expect(await ledger.getBlockedUntil('fuji')).toBeNull();
    });

    it('forgets calls and blocks older than the cut', async () => {
      const { ledger } = await open();
      await ledger.recordCall('demo', T0 - 1, 'query');
      await ledger.recordCall('demo', T0, 'query');
      await ledger.setBlockedUntil('demo', T0 - 1);
      await ledger.setBlockedUntil('fuji', T0 + 1);
      await ledger.prune(T0);
      expect(await ledger.allCallsSince(0)).toEqual([T0]);
      expect(await ledger.getBlockedUntil('demo')).toBeNull();
      expect(await ledger.getBlockedUntil('fuji')).toBe(T0 + 1);
    });
  });
});
