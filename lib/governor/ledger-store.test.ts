import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';

const T0 = Date.UTC(2026, 10, 20);
const call = (
  account: string,
  at: number,
  cls: 'interactive' | 'export' | 'renewal' = 'interactive',
  kind = 'query',
) => ({ account, at, cls, kind });

describe('the ledger', () => {
  forEachBackend((open) => {
    it('records every call with whose it was, oldest first, as epoch-ms numbers', async () => {
      const { ledger } = await open();
      const first = await ledger.recordCall(call('demo', T0 + 2000));
      const second = await ledger.recordCall(call('fuji', T0 + 1000, 'export'));
      await ledger.recordCall(call('demo', T0 - 1000, 'renewal', 'token'));
      expect(typeof first).toBe('number');
      expect(second).toBeGreaterThan(first);
      expect(await ledger.callsSince(T0)).toEqual([
        { account: 'fuji', at: T0 + 1000, cls: 'export' },
        { account: 'demo', at: T0 + 2000, cls: 'interactive' },
      ]);
      expect((await ledger.callsSince(0)).map((c) => c.at)).toEqual([T0 - 1000, T0 + 1000, T0 + 2000]);
    });

    it("counts each team person's calls on an account (the People page's use)", async () => {
      const { ledger } = await open();
      await ledger.recordCall({ ...call('team', T0), person: 'sora' });
      await ledger.recordCall({ ...call('team', T0 + 1), person: 'sora' });
      await ledger.recordCall({ ...call('team', T0 + 2), person: 'vic' });
      await ledger.recordCall({ ...call('team', T0 - 10), person: 'vic' });
      await ledger.recordCall(call('team', T0 + 3, 'export'));
      await ledger.recordCall({ ...call('other', T0), person: 'sora' });
      expect(await ledger.callsByPerson('team', T0)).toEqual(
        new Map([
          ['sora', 2],
          ['vic', 1],
        ]),
      );
    });

    it('counts a call whatever its outcome', async () => {
      const { ledger } = await open();
      const id = await ledger.recordCall(call('demo', T0));
      await ledger.finishCall(id, 'error', T0);
      expect(await ledger.callsSince(T0)).toHaveLength(1);
    });

    it('counts a call from when its answer came, never from earlier than it was sent', async () => {
      const { ledger } = await open();
      const slow = await ledger.recordCall(call('demo', T0));
      const early = await ledger.recordCall(call('fuji', T0 + 1000));
      await ledger.finishCall(slow, 'ok', T0 + 5000);
      await ledger.finishCall(early, 'ok', T0);
      expect(await ledger.callsSince(0)).toEqual([
        { account: 'fuji', at: T0 + 1000, cls: 'interactive' },
        { account: 'demo', at: T0 + 5000, cls: 'interactive' },
      ]);
    });

    it('keeps what it recorded across a restart', async () => {
      const first = await open();
      await first.ledger.recordCall(call('demo', T0));
      await first.ledger.setBlockedUntil('demo', T0 + 60_000);
      await first.close();
      const again = await open();
      expect(await again.ledger.callsSince(0)).toHaveLength(1);
      expect(await again.ledger.blocksAfter(T0)).toEqual(new Map([['demo', T0 + 60_000]]));
    });

    it('never shortens a hold, and forgets one that ended', async () => {
      const { ledger } = await open();
      await ledger.setBlockedUntil('demo', T0 + 60_000);
      await ledger.setBlockedUntil('demo', T0 + 10_000);
      expect((await ledger.blocksAfter(T0)).get('demo')).toBe(T0 + 60_000);
      await ledger.setBlockedUntil('demo', T0 + 90_000);
      expect((await ledger.blocksAfter(T0)).get('demo')).toBe(T0 + 90_000);
      expect((await ledger.blocksAfter(T0 + 90_000)).size).toBe(0);
    });

    it('forgets calls and holds older than the cut', async () => {
      const { ledger } = await open();
      await ledger.recordCall(call('demo', T0 - 1));
      await ledger.recordCall(call('demo', T0));
      await ledger.setBlockedUntil('fuji', T0 - 1);
      await ledger.prune(T0);
      expect((await ledger.callsSince(0)).map((c) => c.at)).toEqual([T0]);
    });
  });
});
