import 'server-only';
import { brandCheck } from '../errors/brand';
/**
 * The governor: the only way to the upstream. It holds the upstream's limits (seed §8) for every
 * call this deployment makes:
 *  - at most `maxInFlight` calls in flight for the whole deployment (the upstream counts "one at a
 *    time" per user *or IP*, and all our calls leave from one IP) and one per account;
 *  - per account, sliding windows of a minute, an hour and a day over a durable ledger; a call is
 *    written to the ledger before it is sent, and counts whatever its outcome;
 *  - the same windows for the deployment as a whole (`deploymentLimits`), because the upstream may
 *    count them per client IP too, and every account's calls leave from our one IP;
 *  - an account the upstream answered 429 waits as long as it was told to.
 * Waiting requests form a queue: people before background work, and within a priority the account
 * served least recently first, so one user's burst cannot starve another. Background work leaves
 * `backgroundReserve` calls of each hour and day to people. A person waits at most `maxWaitMs`;
 * when the wait is known to be longer, the answer is an immediate QuotaExceededError that says
 * which window is full and when it frees. Identical requests share one call.
 *
 * It is deliberately small and in-process: a single writer over the ledger needs no distributed
 * lock. Several instances need an atomic check-and-record in a shared store (Redis, a later issue).
 */
import type { QuotaSnapshot, WindowName } from '../api/types';
import type { LedgerStore } from '../store/ledger';
import { DAY, earliestCall, usage, windowLimits, type WindowLimit } from './windows';

export type Priority = 'interactive' | 'background';

export interface GovernorLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

export interface GovernorOptions {
  ledger: LedgerStore;
  limits: GovernorLimits;
  /** Windows for all accounts together (the upstream's per-IP count); absent: none. */
  deploymentLimits?: GovernorLimits;
  maxInFlight: number;
  /** Calls of each hour and day that background work leaves to people. */
  backgroundReserve: number;
  /** The longest a person's request waits for its turn. */
  maxWaitMs: number;
  now?: () => number;
}

export interface CallRequest {
  account: string;
  priority: Priority;
  /** What the call is for, kept in the ledger (query, detail, token). */
  kind: string;
  /** Requests with the same account and key share one upstream call. */
  shareKey?: string;
  /** Token requests hold the in-flight slot but are not counted by the query API's windows. */
  counted?: boolean;
  /** Overrides maxWaitMs (background work waits as long as it takes). */
  maxWaitMs?: number;
  signal?: AbortSignal;
}

export type LimitedBy = QuotaSnapshot['limitedBy'];
export type LimitScope = NonNullable<QuotaSnapshot['limitScope']>;

const QUOTAEXCEEDEDERROR_BRAND = brandCheck('QuotaExceededError');

export class QuotaExceededError extends Error {
  /** Recognised across bundled copies of this module (lib/errors/brand.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return QUOTAEXCEEDEDERROR_BRAND.hasInstance(value);
  }
  readonly [QUOTAEXCEEDEDERROR_BRAND.brand] = true;

  constructor(
    readonly limitedBy: Exclude<LimitedBy, null>,
    readonly nextCallAt: number,
    readonly retryAfterMs: number,
    readonly scope: LimitScope = 'account',
  ) {
    super(describeLimit(limitedBy, retryAfterMs, scope));
    this.name = 'QuotaExceededError';
  }
}

function describeLimit(limitedBy: Exclude<LimitedBy, null>, retryAfterMs: number, scope: LimitScope): string {
  const seconds = Math.ceil(retryAfterMs / 1000);
  const what =
    limitedBy === 'in-flight'
      ? 'another upstream call is still running'
      : limitedBy === 'upstream'
        ? 'the upstream asked us to wait'
        : scope === 'deployment'
          ? `the calls this dashboard may make for this ${limitedBy} (shared by everyone signed in) are used up`
          : `this account's calls for this ${limitedBy} are used up`;
  return `No upstream call is possible now: ${what}; the next call can go in ${seconds} s.`;
}

interface Next {
  at: number;
  limitedBy: LimitedBy;
  scope: LimitScope;
}

interface Waiter {
  seq: number;
  account: string;
  priority: Priority;
  counted: boolean;
  kind: string;
  deadline: number;
  start: () => void;
  fail: (err: Error) => void;
  /** Detaches from the caller's signal once the wait is over (long-lived signals must not pile up listeners). */
  detach?: () => void;
}

interface AccountState {
  calls: number[];
  blockedUntil: number;
  inFlight: number;
  lastServedSeq: number;
}

export class Governor {
  private readonly now: () => number;
  private readonly windows: WindowLimit[];
  private readonly backgroundWindows: WindowLimit[];
  private readonly deploymentWindows: WindowLimit[];
  private readonly deploymentBackgroundWindows: WindowLimit[];
  /** Send times of every account's counted calls: the deployment's windows. */
  private deploymentCalls: number[] | undefined;
  private deploymentLoading: Promise<void> | undefined;
  private readonly accounts = new Map<string, AccountState>();
  private readonly loading = new Map<string, Promise<AccountState>>();
  private readonly shared = new Map<string, Promise<unknown>>();
  private waiters: Waiter[] = [];
  private inFlight = 0;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(private readonly opts: GovernorOptions) {
    this.now = opts.now ?? Date.now;
    const withReserve = (ws: WindowLimit[]) =>
      ws.map((w) => (w.name === 'minute' ? w : { ...w, limit: Math.max(0, w.limit - opts.backgroundReserve) }));
    this.windows = windowLimits(opts.limits);
    this.backgroundWindows = withReserve(this.windows);
    this.deploymentWindows = opts.deploymentLimits ? windowLimits(opts.deploymentLimits) : [];
    this.deploymentBackgroundWindows = withReserve(this.deploymentWindows);
  }

  /** Runs `fn` (one upstream call) when the limits allow it. */
  run<T>(req: CallRequest, fn: () => Promise<T>): Promise<T> {
    if (req.shareKey) {
      const key = `${req.account}\u0000${req.shareKey}`;
      const existing = this.shared.get(key);
      if (existing) return existing as Promise<T>;
      const promise = this.runUnshared(req, fn).finally(() => this.shared.delete(key));
      this.shared.set(key, promise);
      return promise;
    }
    return this.runUnshared(req, fn);
  }

  private async runUnshared<T>(req: CallRequest, fn: () => Promise<T>): Promise<T> {
    const state = await this.account(req.account);
    await this.waitForTurn(req, state);
    // Written before the call is sent: a crash after this line still counts the call.
    const id = req.counted === false ? undefined : await this.opts.ledger.recordCall(req.account, this.now(), req.kind);
    try {
      const result = await fn();
      if (id !== undefined) await this.opts.ledger.finishCall(id, 'ok');
      return result;
    } catch (err) {
      if (id !== undefined) await this.opts.ledger.finishCall(id, err instanceof Error ? err.name : 'error');
      throw err;
    } finally {
      state.inFlight -= 1;
      this.inFlight -= 1;
      this.pump();
    }
  }

  /** The upstream answered 429: hold this account's calls until `until`. */
  async blockUntil(account: string, until: number): Promise<void> {
    const state = await this.account(account);
    state.blockedUntil = Math.max(state.blockedUntil, until);
    await this.opts.ledger.setBlockedUntil(account, state.blockedUntil);
    this.pump();
  }

  /** What the account has left, for the quota meter and the `_meta` of every answer. */
  async snapshot(account: string): Promise<QuotaSnapshot> {
    const state = await this.account(account);
    const now = this.now();
    const deploymentCalls = this.deploymentCalls ?? [];
    const windows = this.windows.map((w) => {
      const u = usage(state.calls, now, w);
      let remaining = Math.max(0, w.limit - u.used);
      let freesAt = u.oldestLeavesAt;
      const dw = this.deploymentWindows.find((d) => d.name === w.name);
      if (dw) {
        // What this account can really spend is also bounded by what the deployment has left.
        const d = usage(deploymentCalls, now, dw);
        const deploymentRemaining = Math.max(0, dw.limit - d.used);
        if (deploymentRemaining < remaining) {
          remaining = deploymentRemaining;
          freesAt = d.oldestLeavesAt;
        }
      }
      return { name: w.name, limit: w.limit, used: u.used, remaining, freesAt: freesAt === null ? null : new Date(freesAt).toISOString() };
    });
    const next = this.nextCallFor(state, 'interactive', now);
    const queued = { interactive: 0, background: 0 };
    for (const w of this.waiters) if (w.account === account) queued[w.priority] += 1;
    return {
      windows,
      inFlight: state.inFlight,
      queued,
      nextCallAt: new Date(next.at).toISOString(),
      blockedUntil: state.blockedUntil > now ? new Date(state.blockedUntil).toISOString() : null,
      reserve: this.opts.backgroundReserve,
      limitedBy: next.limitedBy,
      limitScope: next.limitedBy === null ? null : next.scope,
    };
  }

  private async account(account: string): Promise<AccountState> {
    if (!this.deploymentCalls && this.deploymentWindows.length > 0) {
      this.deploymentLoading ??= this.opts.ledger.allCallsSince(this.now() - DAY).then((calls) => {
        this.deploymentCalls = calls;
      });
      await this.deploymentLoading;
    }
    const known = this.accounts.get(account);
    if (known) return known;
    let loading = this.loading.get(account);
    if (!loading) {
      loading = (async () => {
        const now = this.now();
        const [calls, blockedUntil] = await Promise.all([
          this.opts.ledger.callsSince(account, now - DAY),
          this.opts.ledger.getBlockedUntil(account),
        ]);
        const state: AccountState = { calls, blockedUntil: blockedUntil ?? 0, inFlight: 0, lastServedSeq: 0 };
        this.accounts.set(account, state);
        this.loading.delete(account);
        return state;
      })();
      this.loading.set(account, loading);
    }
    return loading;
  }

  /** When this account could next make a call of this priority, ignoring the queue. */
  private nextCallFor(state: AccountState, priority: Priority, now: number, counted = true): Next {
    let next: Next = { at: now, limitedBy: null, scope: 'account' };
    const consider = (at: number, limitedBy: LimitedBy, scope: LimitScope) => {
      if (at > next.at) next = { at, limitedBy, scope };
    };
    if (counted) {
      const background = priority === 'background';
      const w = earliestCall(state.calls, now, background ? this.backgroundWindows : this.windows);
      consider(w.at, w.limitedBy, 'account');
      if (this.deploymentCalls && this.deploymentWindows.length > 0) {
        const d = earliestCall(this.deploymentCalls, now, background ? this.deploymentBackgroundWindows : this.deploymentWindows);
        consider(d.at, d.limitedBy, 'deployment');
      }
    }
    consider(state.blockedUntil, 'upstream', 'account');
    if (next.at <= now && (state.inFlight > 0 || this.inFlight >= this.opts.maxInFlight)) {
      next = { at: now, limitedBy: 'in-flight', scope: state.inFlight > 0 ? 'account' : 'deployment' };
    }
    return next;
  }

  private waitForTurn(req: CallRequest, state: AccountState): Promise<void> {
    const now = this.now();
    const counted = req.counted !== false;
    const maxWait = req.maxWaitMs ?? (req.priority === 'interactive' ? this.opts.maxWaitMs : Number.POSITIVE_INFINITY);
    const next = this.nextCallFor(state, req.priority, now, counted);
    // Known to be too long already: say so now rather than holding the person for nothing.
    if (next.at - now > maxWait) {
      return Promise.reject(new QuotaExceededError(next.limitedBy ?? 'in-flight', next.at, next.at - now, next.scope));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        seq: ++this.seq,
        account: req.account,
        priority: req.priority,
        counted,
        kind: req.kind,
        deadline: now + maxWait,
        start: resolve,
        fail: reject,
      };
      const signal = req.signal;
      if (signal) {
        if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
        const onAbort = () => {
          if (this.removeWaiter(waiter)) reject(signal.reason ?? new Error('aborted'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.waiters.push(waiter);
      this.pump();
    });
  }

  private removeWaiter(waiter: Waiter): boolean {
    const i = this.waiters.indexOf(waiter);
    if (i < 0) return false;
    this.waiters.splice(i, 1);
    this.pump();
    return true;
  }

  /** Starts every waiter that may go now, in order, and sets a timer for the next one. */
  private pump(): void {
    const now = this.now();
    while (this.inFlight < this.opts.maxInFlight) {
      const next = this.pickEligible(now);
      if (!next) break;
      this.waiters.splice(this.waiters.indexOf(next), 1);
      const state = this.accounts.get(next.account) as AccountState;
      state.inFlight += 1;
      this.inFlight += 1;
      state.lastServedSeq = ++this.seq;
      if (next.counted) {
        state.calls.push(now);
        this.deploymentCalls?.push(now);
      }
      this.trimCalls(state, now);
      next.detach?.();
      next.start();
    }
    // Only what could not start now has waited too long.
    this.expireWaiters(now);
    this.scheduleWake(now);
  }

  private pickEligible(now: number): Waiter | undefined {
    let best: Waiter | undefined;
    let bestRank: [number, number, number] | undefined;
    for (const w of this.waiters) {
      const state = this.accounts.get(w.account) as AccountState;
      if (state.inFlight > 0) continue;
      if (this.nextCallFor(state, w.priority, now, w.counted).at > now) continue;
      const rank: [number, number, number] = [w.priority === 'interactive' ? 0 : 1, state.lastServedSeq, w.seq];
      if (!bestRank || rank[0] < bestRank[0] || (rank[0] === bestRank[0] && (rank[1] < bestRank[1] || (rank[1] === bestRank[1] && rank[2] < bestRank[2])))) {
        best = w;
        bestRank = rank;
      }
    }
    return best;
  }

  private expireWaiters(now: number): void {
    const expired = this.waiters.filter((w) => w.deadline <= now);
    if (expired.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.deadline > now);
    for (const w of expired) {
      w.detach?.();
      const state = this.accounts.get(w.account) as AccountState;
      const next = this.nextCallFor(state, w.priority, now, w.counted);
      const at = Math.max(next.at, now + 1000);
      w.fail(new QuotaExceededError(next.limitedBy ?? 'in-flight', at, at - now, next.scope));
    }
  }

  private scheduleWake(now: number): void {
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const w of this.waiters) {
      wakeAt = Math.min(wakeAt, w.deadline);
      const state = this.accounts.get(w.account) as AccountState;
      // An in-flight call wakes the queue itself when it ends; only time-bound waits need a timer.
      const at = this.nextCallFor(state, w.priority, now, w.counted).at;
      if (at > now) wakeAt = Math.min(wakeAt, at);
    }
    if (wakeAt === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = wakeAt;
    if (wakeAt === Number.POSITIVE_INFINITY) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.pump();
    }, Math.max(0, wakeAt - now));
    // The timer must not keep a finished test or a stopping server alive.
    this.timer.unref?.();
  }

  private trimCalls(state: AccountState, now: number): void {
    const cutoff = now - DAY;
    for (const calls of [state.calls, this.deploymentCalls ?? []]) {
      let drop = 0;
      while (drop < calls.length && (calls[drop] as number) <= cutoff) drop += 1;
      if (drop > 0) calls.splice(0, drop);
    }
  }
}

export type { WindowName };
