/**
 * The throttle over the real store, on both backends: the growing wait per key and per address, a
 * success that clears the key, attempts that taught nothing taken back, many attempts at once, and
 * a restart that forgets nothing.
 */
import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import type { DurableStore } from '../root/open-store';
import { fingerprint } from './fingerprint';
import { KNOWN_ADDRESS_DAYS, SignInThrottle, throttleRulesOf, type ThrottleDecision } from './sign-in-throttle';

const SECRET = 'test-secret-0123456789abcdef0123456789';
const RULES = throttleRulesOf({
  SIGN_IN_FAILURES_PER_KEY: 5,
  SIGN_IN_FAILURES_PER_ADDRESS: 20,
  SIGN_IN_FIRST_WAIT_SECONDS: 60,
  SIGN_IN_MAX_WAIT_SECONDS: 3600,
  SIGN_IN_FAILURE_WINDOW_MINUTES: 15,
});
const MIN = 60_000;

function throttleOver(store: DurableStore) {
  const clock = { t: Date.UTC(2026, 10, 20) };
  const throttle = new SignInThrottle({
    store: store.signInAttempts,
    ...RULES,
    fingerprint: (v) => fingerprint(v, SECRET),
    now: () => clock.t,
  });
  return { throttle, clock };
}

/** An attempt that the upstream refuses (or null when the throttle stopped it). */
async function fail(
  throttle: SignInThrottle,
  key: string,
  address: string | null = '192.0.2.1',
): Promise<ThrottleDecision> {
  const d = await throttle.begin(key, address);
  if (d.go) await d.attempt.rejected();
  return d;
}

describe('the sign-in throttle', () => {
  forEachBackend((open) => {
    it('lets 5 failures of a key through, then makes it wait a minute, then two', async () => {
      const { throttle, clock } = throttleOver(await open());
      for (let i = 0; i < 5; i++) expect((await fail(throttle, 'demo')).go).toBe(true);
      expect(await throttle.begin('demo', '192.0.2.1')).toEqual({ go: false, retryAfterMs: MIN, by: 'key' });
      // Another key from the same address is not held by this key's failures.
      expect((await throttle.begin('fuji', '192.0.2.1')).go).toBe(true);
      clock.t += MIN;
      expect((await fail(throttle, 'demo')).go).toBe(true);
      expect(await throttle.begin('demo', '198.51.100.7')).toEqual({ go: false, retryAfterMs: 2 * MIN, by: 'key' });
    });

    it("forgets a key's failures once it is accepted", async () => {
      const { throttle } = throttleOver(await open());
      for (let i = 0; i < 4; i++) await fail(throttle, 'demo');
      const right = await throttle.begin('demo', '192.0.2.1');
      expect(right.go).toBe(true);
      if (right.go) await right.attempt.succeeded();
      for (let i = 0; i < 5; i++) expect((await fail(throttle, 'demo')).go).toBe(true);
    });

    it('does not count an attempt that taught nothing (the upstream busy or unreachable)', async () => {
      const { throttle } = throttleOver(await open());
      for (let i = 0; i < 10; i++) {
        const d = await throttle.begin('demo', '192.0.2.1');
        expect(d.go).toBe(true);
        if (d.go) await d.attempt.abandoned();
      }
      // Once an attempt said how it ended, nothing else it says changes the count.
      for (let i = 0; i < 4; i++) {
        const d = await throttle.begin('demo', '192.0.2.1');
        if (d.go) {
          await d.attempt.rejected();
          await d.attempt.abandoned();
        }
      }
      expect((await fail(throttle, 'demo')).go).toBe(true);
      expect((await throttle.begin('demo', '192.0.2.1')).go).toBe(false);
    });

    it('gives an address 20 failures over any keys, then makes it wait, without holding other addresses', async () => {
      const { throttle, clock } = throttleOver(await open());
      for (let i = 0; i < 20; i++) expect((await fail(throttle, `random-${i}`)).go).toBe(true);
      expect(await throttle.begin('demo', '192.0.2.1')).toEqual({ go: false, retryAfterMs: MIN, by: 'address' });
      expect((await throttle.begin('demo', '203.0.113.9')).go).toBe(true);
      // Without a known address, only the key counts.
      expect((await throttle.begin('fuji', null)).go).toBe(true);
      clock.t += 15 * MIN + MIN;
      expect((await throttle.begin('demo', '192.0.2.1')).go).toBe(true);
    });

    it("does not let a stranger's failures lock the owner out of an address the key signed in from", async () => {
      const { throttle, clock } = throttleOver(await open());
      const OWNER = '192.0.2.1';
      const STRANGER = '203.0.113.66';
      const signedIn = await throttle.begin('demo', OWNER);
      if (signedIn.go) await signedIn.attempt.succeeded();
      clock.t += 3 * 24 * 3600_000;
      // Someone who knows the key, from elsewhere: 5 guesses, then the key waits…
      for (let i = 0; i < 5; i++) expect((await fail(throttle, 'demo', STRANGER)).go).toBe(true);
      expect(await throttle.begin('demo', STRANGER)).toMatchObject({ go: false, by: 'key' });
      // …for any address it never signed in from, but not for the owner's.
      expect(await throttle.begin('demo', '198.51.100.7')).toMatchObject({ go: false, by: 'key' });
      const owner = await throttle.begin('demo', OWNER);
      expect(owner.go).toBe(true);
      // Checked upstream as an owner's sign-in (the cap keeps room for those: lib/governor/decision.ts).
      expect(owner.go && owner.attempt.knownAddress).toBe(true);
      const elsewhere = await throttle.begin('fuji', STRANGER);
      expect(elsewhere.go && elsewhere.attempt.knownAddress).toBe(false);
      if (owner.go) await owner.attempt.succeeded();
      // The owner's success gives the stranger no fresh allowance.
      expect(await throttle.begin('demo', STRANGER)).toMatchObject({ go: false, by: 'key' });
      // Guessing from the owner's own address waits after as many failures as the key allows.
      for (let i = 0; i < 5; i++) expect((await fail(throttle, 'demo', OWNER)).go).toBe(true);
      expect(await throttle.begin('demo', OWNER)).toEqual({ go: false, retryAfterMs: MIN, by: 'key' });
    });

    it('forgets an address the key has not signed in from for 30 days', async () => {
      const { throttle, clock } = throttleOver(await open());
      const signedIn = await throttle.begin('demo', '192.0.2.1');
      if (signedIn.go) await signedIn.attempt.succeeded();
      clock.t += KNOWN_ADDRESS_DAYS * 24 * 3600_000 + 1;
      for (let i = 0; i < 5; i++) await fail(throttle, 'demo', '203.0.113.66');
      expect(await throttle.begin('demo', '192.0.2.1')).toMatchObject({ go: false, by: 'key' });
    });

    it('lets exactly 5 of 50 attempts at once for one key reach the upstream', async () => {
      const { throttle } = throttleOver(await open());
      const decisions = await Promise.all(Array.from({ length: 50 }, () => throttle.begin('demo', '192.0.2.1')));
      expect(decisions.filter((d) => d.go)).toHaveLength(5);
    });

    it('remembers the failures across a restart', async () => {
      const first = await open();
      const { throttle, clock } = throttleOver(first);
      for (let i = 0; i < 5; i++) await fail(throttle, 'demo');
      await first.close();
      const again = new SignInThrottle({
        store: (await open()).signInAttempts,
        ...RULES,
        fingerprint: (v) => fingerprint(v, SECRET),
        now: () => clock.t + 1000,
      });
      expect(await again.begin('demo', '192.0.2.1')).toEqual({ go: false, retryAfterMs: MIN - 1000, by: 'key' });
    });

    it('keeps neither the key nor the address as they came', async () => {
      const store = await open();
      const { throttle } = throttleOver(store);
      await fail(throttle, 'pasted-secret-by-mistake', '192.0.2.1');
      const rows = await store.db.selectFrom('sign_in_attempts').select('subject').execute();
      expect(rows).toHaveLength(2);
      for (const { subject } of rows) expect(subject).toMatch(/^(key|address):[0-9a-f]{64}$/);
    });
  });
});
