import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import type { FailureStreak } from './sign-in-attempt-store';

const T0 = Date.UTC(2026, 10, 20);

/** One more failure, as the throttle counts it ahead of an attempt. */
const bump = (current: FailureStreak | null, at: number) => ({
  next: { failures: (current?.failures ?? 0) + 1, lastFailureAt: at },
  result: current?.failures ?? 0,
});

describe('the sign-in attempt store', () => {
  forEachBackend((open) => {
    it('keeps a streak per subject and reads several at once', async () => {
      const { signInAttempts } = await open();
      await signInAttempts.update('key:a', (c) => bump(c, T0));
      await signInAttempts.update('key:a', (c) => bump(c, T0 + 1000));
      await signInAttempts.update('ip:1', (c) => bump(c, T0 + 2000));
      expect(await signInAttempts.read(['key:a', 'ip:1', 'key:never'])).toEqual(
        new Map([
          ['key:a', { failures: 2, lastFailureAt: T0 + 1000 }],
          ['ip:1', { failures: 1, lastFailureAt: T0 + 2000 }],
        ]),
      );
      expect(await signInAttempts.read([])).toEqual(new Map());
    });

    it('leaves a streak as it is, or forgets it, as the change says', async () => {
      const { signInAttempts } = await open();
      await signInAttempts.update('key:a', (c) => bump(c, T0));
      expect(await signInAttempts.update('key:a', (c) => ({ result: c }))).toEqual({ failures: 1, lastFailureAt: T0 });
      expect(await signInAttempts.read(['key:a'])).toEqual(new Map([['key:a', { failures: 1, lastFailureAt: T0 }]]));
      await signInAttempts.update('key:a', () => ({ next: null, result: undefined }));
      expect(await signInAttempts.read(['key:a'])).toEqual(new Map());
      // Looking at a subject it never saw leaves no trace.
      expect(await signInAttempts.update('key:new', (c) => ({ result: c }))).toBeNull();
      expect(await signInAttempts.read(['key:new'])).toEqual(new Map());
    });

    it('counts every one of many attempts at once: none reads a streak another is changing', async () => {
      const { signInAttempts } = await open();
      const seen = await Promise.all(
        Array.from({ length: 20 }, (_, i) => signInAttempts.update('key:a', (c) => bump(c, T0 + i))),
      );
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect((await signInAttempts.read(['key:a'])).get('key:a')?.failures).toBe(20);
    });

    it('keeps the streaks across a restart', async () => {
      const first = await open();
      await first.signInAttempts.update('key:a', (c) => bump(c, T0));
      await first.close();
      const again = await open();
      expect(await again.signInAttempts.read(['key:a'])).toEqual(
        new Map([['key:a', { failures: 1, lastFailureAt: T0 }]]),
      );
    });

    it('prunes streaks whose last failure is older than asked', async () => {
      const { signInAttempts } = await open();
      await signInAttempts.update('key:old', (c) => bump(c, T0 - 10_000));
      await signInAttempts.update('key:new', (c) => bump(c, T0));
      await signInAttempts.prune(T0 - 1, T0);
      expect([...(await signInAttempts.read(['key:old', 'key:new'])).keys()]).toEqual(['key:new']);
    });

    it('remembers the addresses a key signed in from until asked, across a restart, and prunes them after', async () => {
      const first = await open();
      await first.signInAttempts.rememberAddress('pair:a', T0 + 1000);
      await first.signInAttempts.rememberAddress('pair:b', T0 - 1);
      // Remembered again: the later date stands.
      await first.signInAttempts.rememberAddress('pair:a', T0 + 5000);
      await first.close();
      const { signInAttempts, db } = await open();
      expect(await signInAttempts.isKnownAddress('pair:a', T0 + 5000)).toBe(true);
      expect(await signInAttempts.isKnownAddress('pair:a', T0 + 5001)).toBe(false);
      expect(await signInAttempts.isKnownAddress('pair:b', T0)).toBe(false);
      expect(await signInAttempts.isKnownAddress('pair:never', T0)).toBe(false);
      await signInAttempts.prune(T0 - 1, T0);
      expect((await db.selectFrom('sign_in_known_addresses').select('pair').execute()).map((r) => r.pair)).toEqual([
        'pair:a',
      ]);
    });
  });
});
