/**
 * The governor's queue: who waits for a call, and in which order. People (and the renewals their
 * calls need) first, then sign-ins, then exports, then the local history's sync (classes.ts ranks
 * them); within a class the account served least recently first, so one account's burst cannot
 * starve another; within an account the person served least recently first (team mode: several
 * people share an account, lib/team), so one person's burst cannot hold the others back; then
 * first come, first served. Whether a waiter may go now is the decision's
 * (decision.ts): the queue only orders those that may. Other instances see these waiters too
 * (backend.ts `publishWaiters`), ranked the same way.
 */
import type { WaitingCall } from './backend';
import { rankOf, type CallClass } from './classes';
import type { GovernorState } from './decision';

/** A request waiting for its turn. */
export interface Waiter<T = unknown> extends WaitingCall {
  /** Arrival order: first come, first served within a class and account age. */
  seq: number;
  kind: string;
  /** The team person the call is for, when several share the account (lib/team). */
  person?: string;
  /** When the wait is too long: the request is refused then. */
  deadline: number;
  start: (ticket: T) => void;
  fail: (err: Error) => void;
  /** Detaches from the caller's signal once the wait is over (long-lived signals must not pile up listeners). */
  detach?: () => void;
}

export interface NewWaiter<T> {
  account: string;
  cls: CallClass;
  kind: string;
  person?: string;
  lastServed: number;
  since: number;
  deadline: number;
  start: (ticket: T) => void;
  fail: (err: Error) => void;
}

/** When the account last had a call sent: the least recently served goes first (-Infinity: not in the last day). */
export function lastServedOf(state: GovernorState, account: string): number {
  for (let i = state.calls.length - 1; i >= 0; i--) if (state.calls[i]!.account === account) return state.calls[i]!.at;
  return Number.NEGATIVE_INFINITY;
}

/** People whose last call a queue remembers (personServedOf): the least recently served are dropped first. */
const MAX_PEOPLE_REMEMBERED = 10_000;

export class CallQueue<T> {
  private waiters: Waiter<T>[] = [];
  private seq = 0;
  /**
   * When each account's person last had a call start here. This instance's view: across instances
   * the accounts' order is shared (the backend's mayGoFirst), a person's only approximately.
   */
  private readonly personServed = new Map<string, number>();

  /** The waiters, in arrival order (for the backend, which ranks them itself). */
  get all(): readonly Waiter<T>[] {
    return this.waiters;
  }

  get size(): number {
    return this.waiters.length;
  }

  add(w: NewWaiter<T>): Waiter<T> {
    const waiter: Waiter<T> = { ...w, seq: ++this.seq, rank: rankOf(w.cls) };
    this.waiters.push(waiter);
    return waiter;
  }

  /** Takes `w` out of the queue; false when it was not in it (started, expired or gone). */
  remove(w: Waiter<T>): boolean {
    const i = this.waiters.indexOf(w);
    if (i < 0) return false;
    this.waiters.splice(i, 1);
    return true;
  }

  /**
   * The waiter whose turn it is among those that `mayGo` now: by class, then the account served
   * least recently (`lastServed` as of now), then the person served least recently inside the
   * account (a waiter of no person — a personal session, background work — as never served), then
   * arrival.
   */
  next(mayGo: (w: Waiter<T>) => boolean, lastServed: (account: string) => number): Waiter<T> | undefined {
    return this.waiters
      .filter(mayGo)
      .map((w) => ({ w, lastServed: lastServed(w.account), person: this.personServedOf(w) }))
      .sort((a, b) => a.w.rank - b.w.rank || a.lastServed - b.lastServed || a.person - b.person || a.w.seq - b.w.seq)[0]
      ?.w;
  }

  /** Notes that `w`'s call started at `at`: its person goes after the account's others next time. */
  served(w: Waiter<T>, at: number): void {
    if (w.person === undefined) return;
    const key = `${w.account}\u0000${w.person}`;
    this.personServed.delete(key);
    this.personServed.set(key, at);
    if (this.personServed.size > MAX_PEOPLE_REMEMBERED)
      this.personServed.delete(this.personServed.keys().next().value as string);
  }

  private personServedOf(w: Waiter<T>): number {
    if (w.person === undefined) return Number.NEGATIVE_INFINITY;
    return this.personServed.get(`${w.account}\u0000${w.person}`) ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * Notes when each waiter's account was last served, as of now: other instances rank these
   * waiters by it (a burst's later requests are not "never served" once the first went).
   */
  refreshLastServed(lastServed: (account: string) => number): void {
    for (const w of this.waiters) w.lastServed = lastServed(w.account);
  }

  /** Takes out the waiters whose wait is over at `now`. */
  takeExpired(now: number): Waiter<T>[] {
    const expired = this.waiters.filter((w) => w.deadline <= now);
    if (expired.length > 0) this.waiters = this.waiters.filter((w) => w.deadline > now);
    return expired;
  }

  /** Takes every waiter out (the governor stops, or its store failed). */
  takeAll(): Waiter<T>[] {
    return this.waiters.splice(0);
  }

  /** How many of the account's requests wait: people's, and background work's. */
  queuedFor(account: string): { interactive: number; background: number } {
    const queued = { interactive: 0, background: 0 };
    for (const w of this.waiters)
      if (w.account === account) queued[w.rank >= rankOf('export') ? 'background' : 'interactive'] += 1;
    return queued;
  }
}
