import 'server-only';
/**
 * The governor: the only way to the upstream. Every call — query, detail, token — waits in the
 * queue (queue.ts: who goes in which order) until the decision (decision.ts: windows, reserve,
 * shares, holds) lets it go and one of the deployment's in-flight slots is free; it is written to
 * the ledger before it is sent, and counts whatever its outcome (once sent: a turn given back
 * unsent is taken out again, CallNotSentError).
 *
 * A person waits at most `maxWaitMs`; when the wait is known to be longer, the answer is an
 * immediate QuotaExceededError (quota-errors.ts) that says whose budget ran out and when the next
 * call can go. Identical requests share one call (shared-calls.ts).
 *
 * Where the state lives is the backend's business (backend.ts): in memory over the durable ledger
 * for one instance, in PostgreSQL for several — the decisions are the same.
 */
import type { QuotaSnapshot } from './api';
import type { GovernorBackend, SlotLease, WaitingCall } from './backend';
import { rankOf, type CallClass } from './classes';
import { verdict, type GovernorState, type PolicyLimits, type Verdict } from './decision';
import { planCalls, type CallPlan } from './forecast';
import { LedgerWrites } from './ledger-writes';
import { CallQueue, lastServedOf, type Waiter } from './queue';
import { CallNotSentError, QuotaExceededError } from './quota-errors';
import { SharedCalls } from './shared-calls';
import { quotaSnapshot } from './snapshot';
import { quotaLeft, type QuotaLeft } from './quota-figures';

export interface GovernorOptions {
  backend: GovernorBackend;
  limits: PolicyLimits;
  /** Upstream calls in flight at once for the whole deployment (each account: one). */
  maxInFlight: number;
  /** The longest a person's request waits for its turn. */
  maxWaitMs: number;
  now?: () => number;
  /** Told when the ledger could not note a call's end (it is tried again: ledger-writes.ts); for the log. */
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
   * account's waiters, the person served least recently goes first (queue.ts). Noted in the ledger.
   */
  person?: string;
}

/** A call's turn: its ledger id and the in-flight slot it holds. */
interface Ticket {
  id: number;
  lease: SlotLease;
}

/** A short wait before asking the backend again when another instance holds the slot and sent no word. */
const SLOT_POLL_MS = 250;

export class Governor {
  private readonly now: () => number;
  private readonly shared = new SharedCalls();
  private readonly queue = new CallQueue<Ticket>();
  private readonly ledger: LedgerWrites;
  /** Accounts with a call of this instance in flight. */
  private readonly running = new Set<string>();
  private pumping = false;
  private pumpAgain = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly stopListening: () => void;

  constructor(private readonly opts: GovernorOptions) {
    this.now = opts.now ?? Date.now;
    this.ledger = new LedgerWrites(opts.backend, {
      now: this.now,
      onFailed: opts.onLedgerWriteFailed,
      onWritten: () => this.pump(),
    });
    this.stopListening = opts.backend.onChange(() => this.pump());
  }

  get limits(): PolicyLimits {
    return this.opts.limits;
  }

  /**
   * Runs `fn` (one upstream call) when the limits allow it. `fn` is given the signal of everyone
   * waiting for the call (a shared call's: aborted only once every one of them has gone away), to
   * give up the call in flight with.
   */
  run<T>(req: CallRequest, fn: (signal?: AbortSignal) => Promise<T>): Promise<T> {
    if (!req.shareKey) return this.runUnshared(req, fn);
    return this.shared.share(`${req.account}\u0000${req.shareKey}`, req.signal, (signal) =>
      this.runUnshared({ ...req, signal }, fn),
    );
  }

  private async runUnshared<T>(req: CallRequest, fn: (signal?: AbortSignal) => Promise<T>): Promise<T> {
    const ticket = await this.waitForTurn(req);
    try {
      let result: T;
      try {
        result = await fn(req.signal);
      } catch (err) {
        await this.ledger.settle(
          ticket.id,
          err instanceof CallNotSentError ? null : err instanceof Error ? err.name : 'error',
        );
        throw err;
      }
      await this.ledger.settle(ticket.id, 'ok');
      return result;
    } finally {
      this.running.delete(req.account);
      await ticket.lease.release();
      this.pump();
    }
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
    const activity = { queued: this.queue.queuedFor(account), inFlight: this.running.has(account) };
    return quotaSnapshot(state, this.opts.limits, account, activity, now);
  }

  /** What is left of the windows over every account, as the store holds it (the metrics). */
  async quotaLeft(): Promise<QuotaLeft[]> {
    const now = this.now();
    return quotaLeft(await this.opts.backend.state(now), this.opts.limits, now);
  }

  /** Stops the timer and the backend's listeners (tests, shutdown). */
  async close(): Promise<void> {
    this.ledger.close();
    if (this.timer) clearTimeout(this.timer);
    this.stopListening();
    for (const w of this.queue.takeAll()) w.fail(new Error('the governor stopped'));
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
      const signal = req.signal;
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      const waiter = this.queue.add({
        account: req.account,
        cls: req.cls,
        kind: req.kind,
        ...(req.person !== undefined ? { person: req.person } : {}),
        lastServed: lastServedOf(state, req.account),
        since: now,
        deadline: now + maxWait,
        start: resolve,
        fail: reject,
      });
      if (signal) {
        const onAbort = () => {
          if (this.removeWaiter(waiter)) reject(signal.reason ?? new Error('aborted'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.publishWaiters();
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

  private removeWaiter(waiter: Waiter<Ticket>): boolean {
    if (!this.queue.remove(waiter)) return false;
    waiter.detach?.();
    this.publishWaiters();
    this.pump();
    return true;
  }

  private publishWaiters(): void {
    this.opts.backend.publishWaiters(this.queue.all);
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
        for (const w of this.queue.takeAll()) {
          w.detach?.();
          w.fail(err instanceof Error ? err : new Error(String(err)));
        }
      } finally {
        this.pumping = false;
      }
    })();
  }

  private async pumpOnce(): Promise<void> {
    if (this.queue.size === 0) return this.scheduleWake(Number.POSITIVE_INFINITY);
    const { backend, limits, maxInFlight } = this.opts;
    let now = this.now();
    let state = await backend.state(now);
    let slotBusy = false;
    for (;;) {
      if (this.running.size >= maxInFlight) break;
      const decided = state;
      const mayGo = (w: WaitingCall) => verdict(decided, limits, w.account, w.cls, now).at <= now;
      const best = this.queue.next(
        (w) => !this.running.has(w.account) && mayGo(w),
        (account) => lastServedOf(decided, account),
      );
      if (!best) break;
      if (!(await backend.mayGoFirst({ ...best, lastServed: lastServedOf(decided, best.account) }, mayGo))) {
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
      if (!this.queue.remove(best)) {
        // Gone while the slot was taken (aborted): the call was recorded but is not sent, so it
        // does not count.
        try {
          await backend.withdraw(id);
        } finally {
          await lease.release();
        }
        continue;
      }
      this.running.add(best.account);
      this.queue.served(best, now);
      best.detach?.();
      best.start({ id, lease });
      state = await backend.state(now);
    }
    const seen = state;
    this.queue.refreshLastServed((account) => lastServedOf(seen, account));
    this.publishWaiters();
    now = this.now();
    this.expireWaiters(state, now);
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const w of this.queue.all) {
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

  /** Only what could not start now has waited too long. */
  private expireWaiters(state: GovernorState, now: number): void {
    const expired = this.queue.takeExpired(now);
    if (expired.length === 0) return;
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
    this.publishWaiters();
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

export type { CallClass, Verdict };
