import 'server-only';
import { brandCheck } from '../errors/brand';
/**
 * The governor: the only way to the upstream. Every call — query, detail, token — waits here for
 * the limits (policy.ts) and for one of the deployment's in-flight slots, is written to the ledger
 * before it is sent, and counts whatever its outcome (once sent: a turn given back unsent is taken
 * out again, CallNotSentError).
 *
 * Waiting requests form a queue: people (and the renewals their calls need) first, then sign-ins,
 * then exports, then the local history's copy; within a class the account served least recently
 * first, so one account's burst cannot starve another. A person waits at most `maxWaitMs`; when
 * the wait is known to be longer, the answer is an immediate QuotaExceededError that says whose
 * budget ran out and when the next call can go. Identical requests share one call.
 *
 * Where the state lives is the backend's business (backend.ts): in memory over the durable ledger
 * for one instance, in PostgreSQL for several — the decisions are the same.
 */
import type { QuotaSnapshot, SharedQuotaWindow, WindowName } from './api';
import type { GovernorBackend, SlotLease, WaitingCall } from './backend';
import { isSignIn, rankOf, type CallClass } from './classes';
import {
  accountWindows,
  planCalls,
  sharedWindows,
  verdict,
  type CallPlan,
  type GovernorState,
  type LimitedBy,
  type PolicyLimits,
  type Verdict,
} from './policy';

export interface GovernorOptions {
  backend: GovernorBackend;
  limits: PolicyLimits;
  /** Upstream calls in flight at once for the whole deployment (each account: one). */
  maxInFlight: number;
  /** The longest a person's request waits for its turn. */
  maxWaitMs: number;
  now?: () => number;
  /** Told when the ledger could not note a call's end (it is tried again: settle); for the log. */
  onLedgerWriteFailed?: (err: unknown) => void;
}

export interface CallRequest {
  account: string;
  cls: CallClass;
  /** What the call is for, kept in the ledger (query, detail, token). */
  kind: string;
  /** Requests with the same account and key share one upstream call. */
  shareKey?: string;
  /** Overrides the wait bound (background work waits as long as it takes). */
  maxWaitMs?: number;
  signal?: AbortSignal;
  /**
   * The team person the call is for (lib/team), when several share the account: among the
   * account's waiters, the person served least recently goes first, so one person's burst does not
   * hold the others back. Noted in the ledger.
   */
  person?: string;
}

const QUOTAEXCEEDEDERROR_BRAND = brandCheck('QuotaExceededError');
const CALLNOTSENTERROR_BRAND = brandCheck('CallNotSentError');

/**
 * Thrown by a call's function when its turn came but it sent nothing (the token it held ran out
 * while it waited): the call is taken back out of the ledger, so it counts against no window and
 * the quota meter shows only what the upstream saw. Thrown once anything may have gone out, it
 * would undercount: only for a call that certainly did not.
 */
export class CallNotSentError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return CALLNOTSENTERROR_BRAND.hasInstance(value);
  }
  readonly [CALLNOTSENTERROR_BRAND.brand] = true;

  constructor(message: string) {
    super(message);
    this.name = 'CallNotSentError';
  }
}

export type LimitScope = 'account' | 'deployment';

/** Facts behind a refusal, for the message and the problem details. */
export interface LimitDetail {
  limit?: number;
  sharedBy?: number;
  held?: boolean;
  cls?: CallClass;
}

export class QuotaExceededError extends Error {
  /** Recognised across bundled copies of this module (lib/errors/brand.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return QUOTAEXCEEDEDERROR_BRAND.hasInstance(value);
  }
  readonly [QUOTAEXCEEDEDERROR_BRAND.brand] = true;

  constructor(
    readonly limitedBy: LimitedBy,
    readonly nextCallAt: number,
    readonly retryAfterMs: number,
    readonly scope: LimitScope = 'account',
    readonly detail: LimitDetail = {},
  ) {
    super(describeLimit(limitedBy, retryAfterMs, scope, detail));
    this.name = 'QuotaExceededError';
  }

  /** The message without its wait (limitReason). */
  get reason(): string {
    return limitReason(this.limitedBy, this.scope, this.detail);
  }
}

function wait(ms: number): string {
  if (!Number.isFinite(ms)) return 'no call can go at the configured limits';
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `the next call can go in ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  // The day's window: "in 23 h 59 min", not "in 1439 min".
  return minutes < 120
    ? `the next call can go in ${minutes} min`
    : `the next call can go in ${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

const per = (name: WindowName) => (name === 'hour' ? 'an hour' : `a ${name}`);

/**
 * Whose budget ran out — the account's own, the dashboard's shared one, or the upstream's hold —
 * without when the next call can go: a screen that counts the wait down live says that itself
 * (a number written into the sentence would stand still beside it).
 */
export function limitReason(limitedBy: LimitedBy, scope: LimitScope, d: LimitDetail = {}): string {
  switch (limitedBy) {
    case 'in-flight':
      return 'Another upstream call is still running (the Report API takes one at a time)';
    case 'upstream':
      return "The Report API asked us to wait before this account's next call";
    case 'tokens':
      return d.cls !== undefined && isSignIn(d.cls)
        ? 'Too many sign-ins are being checked with the Report API right now'
        : "This dashboard's token requests for this minute are used";
    default: {
      if (scope === 'account') {
        const limit = d.limit !== undefined ? `${d.limit} ` : '';
        return `Your account's ${limit}calls this ${limitedBy} are used${d.cls === 'export' || d.cls === 'sync' ? ' (background work leaves some to searches)' : ''}`;
      }
      const users =
        d.sharedBy !== undefined ? ` (${d.sharedBy} ${d.sharedBy === 1 ? 'account' : 'accounts'} used them)` : '';
      if (d.held)
        return `Your account has used its share of this dashboard's calls this ${limitedBy}: the rest is kept for accounts that have not called yet${users}`;
      return `This dashboard's shared calls this ${limitedBy}${d.limit !== undefined ? ` (${d.limit} ${per(limitedBy)} for every account together)` : ''} are used${users}`;
    }
  }
}

/** limitReason, and when the next call can go. */
export function describeLimit(
  limitedBy: LimitedBy,
  retryAfterMs: number,
  scope: LimitScope,
  d: LimitDetail = {},
): string {
  const reason = limitReason(limitedBy, scope, d);
  if (limitedBy === 'tokens' && d.cls !== undefined && isSignIn(d.cls))
    return `${reason}; try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
  return `${reason}; ${wait(retryAfterMs)}.`;
}

interface Ticket {
  id: number;
  lease: SlotLease;
}

interface Waiter extends WaitingCall {
  seq: number;
  kind: string;
  person?: string;
  deadline: number;
  start: (ticket: Ticket) => void;
  fail: (err: Error) => void;
  /** Detaches from the caller's signal once the wait is over (long-lived signals must not pile up listeners). */
  detach?: () => void;
}

/** A short wait before asking the backend again when another instance holds the slot and sent no word. */
const SLOT_POLL_MS = 250;

/** A signal that aborts once every signal joined to it has (never, once one joined that cannot). */
function sharedSignal(): { signal: AbortSignal; join(signal: AbortSignal | undefined): void } {
  const controller = new AbortController();
  let open = 0;
  let forever = false;
  return {
    signal: controller.signal,
    join(signal) {
      if (!signal) {
        forever = true;
        return;
      }
      if (signal.aborted) {
        // Gone before it joined: it waits for nothing (alone, the call is given up at once).
        if (open === 0 && !forever) controller.abort(signal.reason);
        return;
      }
      open += 1;
      signal.addEventListener(
        'abort',
        () => {
          open -= 1;
          if (open === 0 && !forever) controller.abort(signal.reason);
        },
        { once: true },
      );
    },
  };
}

/** People whose last call each Governor remembers (personServedOf). */
const MAX_PEOPLE_REMEMBERED = 10_000;

/** Tries of a ledger write that failed (settle): 1 s, 2 s, 4 s … then every minute, about 15 minutes in all. */
const LEDGER_RETRIES = 20;

export class Governor {
  private readonly now: () => number;
  private readonly shared = new Map<
    string,
    { promise: Promise<unknown>; join(signal: AbortSignal | undefined): void }
  >();
  private waiters: Waiter[] = [];
  /** When each account's person last had a call start here (this instance's view: see personServedOf). */
  private readonly personServed = new Map<string, number>();
  /** Accounts with a call of this instance in flight. */
  private readonly running = new Set<string>();
  private seq = 0;
  private pumping = false;
  private pumpAgain = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** Ledger writes waiting to be tried again (settle), and whether close() was called. */
  private readonly ledgerRetries = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;
  private readonly stopListening: () => void;

  constructor(private readonly opts: GovernorOptions) {
    this.now = opts.now ?? Date.now;
    this.stopListening = opts.backend.onChange(() => this.pump());
  }

  get limits(): PolicyLimits {
    return this.opts.limits;
  }

  /** Runs `fn` (one upstream call) when the limits allow it. */
  run<T>(req: CallRequest, fn: () => Promise<T>): Promise<T> {
    if (req.shareKey) {
      const key = `${req.account}\u0000${req.shareKey}`;
      const existing = this.shared.get(key);
      if (existing) {
        existing.join(req.signal);
        return existing.promise as Promise<T>;
      }
      // The call goes on while anyone who shares it still waits: it is given up only when every
      // one of them has gone away (the first one's going would fail the others otherwise).
      const sharers = sharedSignal();
      sharers.join(req.signal);
      const promise = this.runUnshared({ ...req, signal: sharers.signal }, fn).finally(() => this.shared.delete(key));
      this.shared.set(key, { promise, join: sharers.join });
      return promise;
    }
    return this.runUnshared(req, fn);
  }

  private async runUnshared<T>(req: CallRequest, fn: () => Promise<T>): Promise<T> {
    const ticket = await this.waitForTurn(req);
    try {
      let result: T;
      try {
        result = await fn();
      } catch (err) {
        await this.settle(
          ticket.id,
          err instanceof CallNotSentError ? null : err instanceof Error ? err.name : 'error',
        );
        throw err;
      }
      await this.settle(ticket.id, 'ok');
      return result;
    } finally {
      this.running.delete(req.account);
      await ticket.lease.release();
      this.pump();
    }
  }

  /**
   * Notes in the ledger how call `id` ended (`null`: never sent, taken out). The call's answer is
   * its caller's whatever happens here: a ledger that cannot be written now (the store is down) is
   * written again in the background, with the answer's time, so the call is counted from when it
   * came once it can be. Thrown away, the answer would be paid for again.
   */
  private async settle(id: number, outcome: string | null): Promise<void> {
    const at = this.now();
    const write = () => (outcome === null ? this.opts.backend.withdraw(id) : this.opts.backend.finish(id, outcome, at));
    try {
      await write();
    } catch (err) {
      this.opts.onLedgerWriteFailed?.(err);
      this.writeLater(write, 1);
    }
  }

  /** Tries a ledger write again, later each time (1 s, 2 s, … 1 min), for about a quarter of an hour. */
  private writeLater(write: () => Promise<void>, attempt: number): void {
    if (attempt > LEDGER_RETRIES || this.closed) return;
    const timer = setTimeout(
      () => {
        this.ledgerRetries.delete(timer);
        write().then(
          () => this.pump(),
          () => this.writeLater(write, attempt + 1),
        );
      },
      Math.min(60_000, 1000 * 2 ** (attempt - 1)),
    );
    timer.unref?.();
    this.ledgerRetries.add(timer);
  }

  /** The upstream answered 429: hold this account's calls until `until`. */
  async blockUntil(account: string, until: number): Promise<void> {
    await this.opts.backend.block(account, until);
    this.pump();
  }

  /** When a call of this class could go for the account, ignoring the queue (Infinity: never). */
  async nextCallAt(account: string, cls: CallClass): Promise<Verdict> {
    const now = this.now();
    return verdict(await this.opts.backend.state(now), this.opts.limits, account, cls, now);
  }

  /** Calls of this class the account has made since `since` (ms; at most a day back). */
  async callsMade(account: string, cls: CallClass, since: number): Promise<number> {
    const state = await this.opts.backend.state(this.now());
    return state.calls.filter((c) => c.account === account && c.cls === cls && c.at >= since).length;
  }

  /** When `count` calls of `cls` would go, after `ahead` queued before them (an export's estimate). */
  async plan(account: string, cls: CallClass, count: number, ahead: number, callMs: number): Promise<CallPlan> {
    const now = this.now();
    return planCalls(await this.opts.backend.state(now), this.opts.limits, account, cls, count, ahead, callMs, now);
  }

  /** What the account has left, for the quota meter and the `_meta` of every answer. */
  async snapshot(account: string): Promise<QuotaSnapshot> {
    const now = this.now();
    const state = await this.opts.backend.state(now);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const next = verdict(state, this.opts.limits, account, 'interactive', now);
    const own = accountWindows(state, this.opts.limits, account, now);
    const shared: SharedQuotaWindow[] = sharedWindows(state, this.opts.limits, now).map((w) => ({
      ...w,
      freesAt: iso(w.freesAt),
    }));
    const queued = { interactive: 0, background: 0 };
    for (const w of this.waiters)
      if (w.account === account) queued[rankOf(w.cls) >= rankOf('export') ? 'background' : 'interactive'] += 1;
    const blocked = state.blocks.get(account) ?? 0;
    const inFlight = this.running.has(account) ? 1 : 0;
    const nextAt = Math.max(next.at, now);
    return {
      windows: own.map((w) => ({ ...w, freesAt: iso(w.freesAt) })),
      shared: shared.length > 0 ? shared : null,
      inFlight,
      queued,
      nextCallAt: Number.isFinite(nextAt) ? new Date(nextAt).toISOString() : null,
      blockedUntil: blocked > now ? new Date(blocked).toISOString() : null,
      reserve: this.opts.limits.backgroundReserve,
      limitedBy: next.at > now ? next.limitedBy : inFlight > 0 ? 'in-flight' : null,
      limitScope: next.at > now ? next.scope : inFlight > 0 ? 'account' : null,
      ...(next.at > now
        ? {
            limitMessage: describeLimit(next.limitedBy ?? 'in-flight', next.at - now, next.scope, {
              ...next,
              cls: 'interactive',
            }),
          }
        : {}),
    };
  }

  /** Stops the timer and the backend's listeners (tests, shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.ledgerRetries) clearTimeout(timer);
    this.ledgerRetries.clear();
    if (this.timer) clearTimeout(this.timer);
    this.stopListening();
    for (const w of this.waiters) w.fail(new Error('the governor stopped'));
    this.waiters = [];
  }

  private async waitForTurn(req: CallRequest): Promise<Ticket> {
    const now = this.now();
    const interactive = rankOf(req.cls) < rankOf('export');
    const maxWait = req.maxWaitMs ?? (interactive ? this.opts.maxWaitMs : Number.POSITIVE_INFINITY);
    const state = await this.opts.backend.state(now);
    const v = verdict(state, this.opts.limits, req.account, req.cls, now);
    // Known to be too long already: say so now rather than holding the person for nothing.
    if (v.at - now > maxWait) throw this.refusal(v, req.cls, now);
    return new Promise<Ticket>((resolve, reject) => {
      const waiter: Waiter = {
        seq: ++this.seq,
        account: req.account,
        cls: req.cls,
        rank: rankOf(req.cls),
        kind: req.kind,
        ...(req.person !== undefined ? { person: req.person } : {}),
        lastServed: lastServedOf(state, req.account),
        since: now,
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
      this.opts.backend.publishWaiters(this.waiters);
      this.pump();
    });
  }

  private refusal(v: Verdict, cls: CallClass, now: number): QuotaExceededError {
    const at = Math.max(v.at, now + 1000);
    return new QuotaExceededError(v.limitedBy ?? 'in-flight', at, at - now, v.scope, {
      limit: v.limit,
      sharedBy: v.sharedBy,
      held: v.held,
      cls,
    });
  }

  private removeWaiter(waiter: Waiter): boolean {
    const i = this.waiters.indexOf(waiter);
    if (i < 0) return false;
    this.waiters.splice(i, 1);
    waiter.detach?.();
    this.opts.backend.publishWaiters(this.waiters);
    this.pump();
    return true;
  }

  /** Starts every waiter that may go now, in order; one pass at a time. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.pumpAgain = false;
          await this.pumpOnce();
        } while (this.pumpAgain);
      } catch (err) {
        // A store error must not strand the queue: fail the waiters with it, they may retry.
        for (const w of this.waiters.splice(0)) {
          w.detach?.();
          w.fail(err instanceof Error ? err : new Error(String(err)));
        }
      } finally {
        this.pumping = false;
      }
    })();
  }

  private async pumpOnce(): Promise<void> {
    if (this.waiters.length === 0) return this.scheduleWake(Number.POSITIVE_INFINITY);
    const { backend, limits, maxInFlight } = this.opts;
    let now = this.now();
    let state = await backend.state(now);
    let slotBusy = false;
    for (;;) {
      if (this.running.size >= maxInFlight) break;
      const candidates = this.waiters
        .filter((w) => !this.running.has(w.account) && verdict(state, limits, w.account, w.cls, now).at <= now)
        .map((w) => ({ w, lastServed: lastServedOf(state, w.account) }))
        .sort(
          (a, b) =>
            a.w.rank - b.w.rank ||
            a.lastServed - b.lastServed ||
            this.personServedOf(a.w) - this.personServedOf(b.w) ||
            a.w.seq - b.w.seq,
        );
      const best = candidates[0]?.w;
      if (!best) break;
      const fresh = state;
      const canGo = (other: WaitingCall) => verdict(fresh, limits, other.account, other.cls, now).at <= now;
      if (!(await backend.mayGoFirst({ ...best, lastServed: lastServedOf(state, best.account) }, canGo))) {
        slotBusy = true;
        break;
      }
      const lease = await backend.tryAcquireSlot(best.account);
      if (!lease) {
        slotBusy = true;
        break;
      }
      now = this.now();
      let id: number | null;
      try {
        id = await backend.admit(
          {
            account: best.account,
            at: now,
            cls: best.cls,
            kind: best.kind,
            ...(best.person !== undefined ? { person: best.person } : {}),
          },
          (fresh) => verdict(fresh, limits, best.account, best.cls, now).at <= now,
        );
      } catch (err) {
        // The slot is not kept by a call that never started (a store error): every instance's
        // calls would wait on it until this process ended.
        await lease.release().catch(() => undefined);
        throw err;
      }
      if (id === null) {
        // Another instance took the window meanwhile: look again with the fresh state.
        await lease.release();
        state = await backend.state(now);
        continue;
      }
      const i = this.waiters.indexOf(best);
      if (i < 0) {
        // Gone while the slot was taken (aborted): the call was recorded but is not sent, so it
        // does not count.
        try {
          await backend.withdraw(id);
        } finally {
          await lease.release();
        }
        continue;
      }
      this.waiters.splice(i, 1);
      this.running.add(best.account);
      this.notePersonServed(best, now);
      best.detach?.();
      best.start({ id, lease });
      state = await backend.state(now);
    }
    // Other instances rank these waiters by when their account was last served: as of now, not as
    // of when they arrived (a burst's later requests are not "never served" once the first went).
    for (const w of this.waiters) w.lastServed = lastServedOf(state, w.account);
    this.backendWaiters();
    now = this.now();
    this.expireWaiters(state, now);
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const w of this.waiters) {
      wakeAt = Math.min(wakeAt, w.deadline);
      const at = verdict(state, limits, w.account, w.cls, now).at;
      if (at > now) wakeAt = Math.min(wakeAt, at);
      // Held by another instance's call: its end is announced (onChange); look again soon regardless.
      else if (slotBusy) wakeAt = Math.min(wakeAt, now + SLOT_POLL_MS);
      // Due by now but not when this pass chose (the store's reads took the time in between): look
      // again at once. A call held by its account's running call, or by the in-flight cap, is
      // looked at again when that call ends.
      else if (!this.running.has(w.account) && this.running.size < maxInFlight) wakeAt = Math.min(wakeAt, now);
    }
    this.scheduleWake(wakeAt);
  }

  /**
   * Fairness per person inside an account: among waiters of one account (their account's turn is
   * the same), the person whose last call started longest ago goes first; a waiter of no person
   * (a personal session, background work) ranks as never served, as before. Kept per instance: across
   * instances the accounts' order is shared (mayGoFirst), a person's only approximately, like the rest.
   */
  private personServedOf(w: Waiter): number {
    if (w.person === undefined) return Number.NEGATIVE_INFINITY;
    return this.personServed.get(`${w.account}\u0000${w.person}`) ?? Number.NEGATIVE_INFINITY;
  }

  private notePersonServed(w: Waiter, at: number): void {
    if (w.person === undefined) return;
    const key = `${w.account}\u0000${w.person}`;
    this.personServed.delete(key);
    this.personServed.set(key, at);
    // Bounded: the least recently served go first (they would rank as never served, which they nearly are).
    if (this.personServed.size > MAX_PEOPLE_REMEMBERED)
      this.personServed.delete(this.personServed.keys().next().value as string);
  }

  private backendWaiters(): void {
    this.opts.backend.publishWaiters(this.waiters);
  }

  /** Only what could not start now has waited too long. */
  private expireWaiters(state: GovernorState, now: number): void {
    const expired = this.waiters.filter((w) => w.deadline <= now);
    if (expired.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.deadline > now);
    for (const w of expired) {
      w.detach?.();
      const v = verdict(state, this.opts.limits, w.account, w.cls, now);
      w.fail(
        this.refusal(
          v.at > now
            ? v
            : { ...v, limitedBy: 'in-flight', scope: this.running.has(w.account) ? 'account' : 'deployment' },
          w.cls,
          now,
        ),
      );
    }
    this.backendWaiters();
  }

  private scheduleWake(at: number): void {
    if (at === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (!Number.isFinite(at)) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(0, at - this.now()),
    );
    // The timer must not keep a finished test or a stopping server alive.
    this.timer.unref?.();
  }
}

/** When the account last had a call sent: the least recently served goes first. */
function lastServedOf(state: GovernorState, account: string): number {
  for (let i = state.calls.length - 1; i >= 0; i--) if (state.calls[i]!.account === account) return state.calls[i]!.at;
  return Number.NEGATIVE_INFINITY;
}

export type { CallClass, Verdict };
