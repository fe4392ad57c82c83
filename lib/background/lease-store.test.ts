import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';

const T0 = Date.UTC(2026, 10, 20);

describe('leases', () => {
  forEachBackend((open, dialect) => {
    it('go to one holder at a time, are renewed by it, and free themselves when not renewed', async () => {
      const { leases } = await open();
      expect(await leases.tryAcquire('export:1', 'a', T0, 30_000)).toBe(true);
      expect(await leases.tryAcquire('export:1', 'b', T0 + 1000, 30_000)).toBe(false);
      expect(await leases.tryAcquire('export:1', 'a', T0 + 20_000, 30_000)).toBe(true);
      expect(await leases.holderOf('export:1', T0 + 40_000)).toBe('a');
      // a stopped renewing: at T0 + 50 s its lease is over and b takes the work.
      expect(await leases.tryAcquire('export:1', 'b', T0 + 50_000, 30_000)).toBe(true);
      expect(await leases.holderOf('export:1', T0 + 50_001)).toBe('b');
    });

    it('are given back only by their holder', async () => {
      const { leases } = await open();
      await leases.tryAcquire('sync:demo', 'a', T0, 30_000);
      await leases.release('sync:demo', 'b');
      expect(await leases.holderOf('sync:demo', T0)).toBe('a');
      await leases.release('sync:demo', 'a');
      expect(await leases.tryAcquire('sync:demo', 'b', T0, 30_000)).toBe(true);
    });

    it('let exactly one of many instances in when they ask at once', async () => {
      const store = await open();
      // One SQLite folder serves one process; PostgreSQL is where several instances meet.
      const again = dialect === 'postgres' ? await open() : store;
      const results = await Promise.all(
        ['a', 'b', 'c', 'd'].map((h, i) => (i % 2 ? again : store).leases.tryAcquire('export:9', h, T0, 30_000)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
});
