import { describe, expect, it } from 'vitest';
import type { LeaseStore } from './lease-store';
import { holdLease } from './hold-lease';

const TTL = 30_000;

/** A lease table of one resource in memory, counting how often the lease was taken or renewed. */
function leases(): LeaseStore & { takes: number; holder: string | null; expiresAt: number } {
  const table = {
    takes: 0,
    holder: null as string | null,
    expiresAt: 0,
    async tryAcquire(_resource: string, holder: string, now: number, ttlMs: number) {
      if (table.holder !== null && table.holder !== holder && table.expiresAt > now) return false;
      table.takes += 1;
      table.holder = holder;
      table.expiresAt = now + ttlMs;
      return true;
    },
    async release() {
      table.holder = null;
    },
    async holderOf(_resource: string, now: number) {
      return table.expiresAt > now ? table.holder : null;
    },
  };
  return table;
}

describe('holding a lease while a step runs', () => {
  const lease = { resource: 'export:1', holder: 'a', ttlMs: TTL };
  const outer = new AbortController().signal;

  it('takes the lease before a step, and returns null without running the step when another holds it', async () => {
    const table = leases();
    await table.tryAcquire('export:1', 'b', 0, TTL);
    let ran = false;
    const outcome = await holdLease(
      table,
      lease,
      () => 1_000,
      outer,
      async () => {
        ran = true;
        return 'done';
      },
    );
    expect(outcome).toBeNull();
    expect(ran).toBe(false);
  });

  it('does not take it again before each step while it was taken less than a third of its life ago', async () => {
    const table = leases();
    let clock = 0;
    const renewal = { at: Number.NEGATIVE_INFINITY };
    const step = async () => 'page';
    // Pages one second apart: the lease is taken at 0, then again only once 10 s have passed.
    for (let page = 0; page < 25; page++) {
      expect(await holdLease(table, lease, () => clock, outer, step, renewal)).toBe('page');
      clock += 1_000;
    }
    expect(table.takes).toBe(3); // at 0 s, 10 s and 20 s
    expect(table.expiresAt).toBe(20_000 + TTL);
  });

  it('takes it again after a stall, and stops when another instance took it over meanwhile', async () => {
    const table = leases();
    const renewal = { at: Number.NEGATIVE_INFINITY };
    expect(
      await holdLease(
        table,
        lease,
        () => 0,
        outer,
        async () => 'page',
        renewal,
      ),
    ).toBe('page');
    // This instance stalled past the lease's end; another took the work over.
    await table.tryAcquire('export:1', 'b', TTL + 1, TTL);
    expect(
      await holdLease(
        table,
        lease,
        () => TTL + 2,
        outer,
        async () => 'page',
        renewal,
      ),
    ).toBeNull();
  });

  it('aborts the step when a renewal while it runs finds the lease lost', async () => {
    const table = leases();
    let clock = 0;
    const outcome = await holdLease(
      {
        ...table,
        tryAcquire: (r, h, now, ttl) => (clock === 0 ? table.tryAcquire(r, h, now, ttl) : Promise.resolve(false)),
      },
      { ...lease, ttlMs: 30 },
      () => clock,
      outer,
      (signal) => {
        clock = 1;
        return new Promise<string>((resolve) =>
          signal.addEventListener('abort', () => resolve(`aborted: ${(signal.reason as Error).message}`)),
        );
      },
    );
    expect(outcome).toBe('aborted: lease lost');
  });
});
