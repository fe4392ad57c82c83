import 'server-only';
/**
 * Sign-in throttling, before the upstream: each attempt is checked against its client address's
 * streak of failures and its API key's (lib/auth/throttle-rules.ts), in the store, so a restart
 * forgets nothing and instances sharing PostgreSQL agree. A key's attempt is counted as a failure
 * before the upstream is asked — the check and the count are one step — so attempts sent at once
 * cannot get past the allowance together; the attempt then says how it ended: accepted (the key's
 * failures are forgotten), refused (the failure stands, and counts for the address too), or neither
 * (the upstream was busy or unreachable, the form was bad: the count is taken back).
 *
 * A key's streak holds anyone who knows the key, the owner too: a stranger sending a wrong secret
 * now and then would keep the owner out. So an address the key signed in from in the last
 * KNOWN_ADDRESS_DAYS is let through a key that waits, on a streak of its own (the key and that
 * address together, with the key's allowance): someone guessing from the owner's own network
 * still waits after as many failures as the key allows.
 *
 * Keys and addresses are stored as keyed fingerprints (./fingerprint.ts), never as they came.
 */
import type { Config } from '../config';
import type { SignInAttemptStore } from './sign-in-attempt-store';
import { nextAttemptAt, withFailure, withoutFailure, type ThrottleRule } from './throttle-rules';
import { DAY_MS } from '../time/units';

export interface SignInAttempt {
  /** The key signed in from this address lately: its check at the upstream is an owner's (CallClass `signin`), else `signin-new`. */
  readonly knownAddress: boolean;
  /** The upstream accepted the key and secret. */
  succeeded(): Promise<void>;
  /** The upstream refused them. */
  rejected(): Promise<void>;
  /** Nothing was learnt about the credentials; a no-op once the attempt said how it ended. */
  abandoned(): Promise<void>;
}

/** How long an address a key signed in from lets its owner past the key's wait. */
export const KNOWN_ADDRESS_DAYS = 30;

export type ThrottleDecision =
  | { go: true; attempt: SignInAttempt }
  /** `by`: whose failures stopped it. */
  | { go: false; retryAfterMs: number; by: 'key' | 'address' };

export interface SignInThrottleOptions {
  store: SignInAttemptStore;
  perKey: ThrottleRule;
  perAddress: ThrottleRule;
  fingerprint: (value: string) => string;
  now?: () => number;
}

/** The rules as configured. */
export function throttleRulesOf(
  c: Pick<
    Config,
    | 'SIGN_IN_FAILURES_PER_KEY'
    | 'SIGN_IN_FAILURES_PER_ADDRESS'
    | 'SIGN_IN_FIRST_WAIT_SECONDS'
    | 'SIGN_IN_MAX_WAIT_SECONDS'
    | 'SIGN_IN_FAILURE_WINDOW_MINUTES'
  >,
) {
  const common = {
    firstWaitMs: c.SIGN_IN_FIRST_WAIT_SECONDS * 1000,
    maxWaitMs: Math.max(c.SIGN_IN_FIRST_WAIT_SECONDS, c.SIGN_IN_MAX_WAIT_SECONDS) * 1000,
    windowMs: c.SIGN_IN_FAILURE_WINDOW_MINUTES * 60_000,
  };
  return {
    perKey: { ...common, allowance: c.SIGN_IN_FAILURES_PER_KEY },
    perAddress: { ...common, allowance: c.SIGN_IN_FAILURES_PER_ADDRESS },
  };
}

export class SignInThrottle {
  private readonly now: () => number;

  constructor(private readonly opts: SignInThrottleOptions) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Whether an attempt for `apiKey` from `address` (null: not known, so only the key counts) may
   * reach the upstream now; when it may, it is counted as the key's failure until it says otherwise.
   */
  async begin(apiKey: string, address: string | null): Promise<ThrottleDecision> {
    const { store, perKey, perAddress, fingerprint } = this.opts;
    const now = this.now();
    const keySubject = `key:${fingerprint(apiKey)}`;
    const addressSubject = address === null ? null : `address:${fingerprint(address)}`;
    // Separated by a line break, which neither a key nor an address holds.
    const pairSubject = address === null ? null : `pair:${fingerprint(`${apiKey}\n${address}`)}`;
    if (addressSubject) {
      // Read, not locked: an address's allowance is coarse, a few attempts at once past it do no harm.
      const at = nextAttemptAt((await store.read([addressSubject])).get(addressSubject) ?? null, perAddress, now);
      if (at > now) return { go: false, retryAfterMs: at - now, by: 'address' };
    }
    /** Counts one failure ahead of the attempt unless `subject` waits; answers until when it waits. */
    const countAhead = (subject: string) =>
      store.update(subject, (current) => {
        const at = nextAttemptAt(current, perKey, now);
        return at > now ? { result: at } : { next: withFailure(current, perKey, now), result: null };
      });
    let counted = keySubject;
    const knownAddress = pairSubject !== null && (await store.isKnownAddress(pairSubject, now));
    const keyWaitsUntil = await countAhead(keySubject);
    if (keyWaitsUntil !== null) {
      if (!knownAddress) return { go: false, retryAfterMs: keyWaitsUntil - now, by: 'key' };
      const pairWaitsUntil = await countAhead(pairSubject as string);
      if (pairWaitsUntil !== null) return { go: false, retryAfterMs: pairWaitsUntil - now, by: 'key' };
      counted = pairSubject as string;
    }

    let settled = false;
    const settle = async (change: () => Promise<unknown>) => {
      if (settled) return;
      settled = true;
      await change();
    };
    return {
      go: true,
      attempt: {
        knownAddress,
        // The streak counted is forgotten (the key's, or the pair's past a key that waits: the
        // owner's success does not give a stranger a fresh allowance), and the address remembered.
        succeeded: () =>
          settle(async () => {
            await store.update(counted, () => ({ next: null, result: null }));
            if (pairSubject) await store.rememberAddress(pairSubject, this.now() + KNOWN_ADDRESS_DAYS * DAY_MS);
          }),
        rejected: () =>
          settle(async () => {
            if (addressSubject)
              await store.update(addressSubject, (current) => ({
                next: withFailure(current, perAddress, this.now()),
                result: null,
              }));
          }),
        abandoned: () =>
          settle(() => store.update(counted, (current) => ({ next: withoutFailure(current), result: null }))),
      },
    };
  }
}
