/**
 * What the governor needs from where its state lives. The single-instance backend keeps the state
 * in memory over the durable ledger (memory-backend.ts); the PostgreSQL backend keeps it in the
 * shared database, so that every instance of the dashboard decides on the same rows and one
 * advisory lock is the one call in flight (lib/governor/postgres-backend.ts).
 */
import type { CallClass } from './classes';
import type { CallRecord, GovernorState } from './decision';

export interface NewCall extends CallRecord {
  /** What the call is for (query, detail, token), kept in the ledger. */
  kind: string;
  /** The team person it was made for (lib/team), kept in the ledger: each person's use is shown. */
  person?: string;
}

/** A request waiting for its turn, as other instances see it. */
export interface WaitingCall {
  account: string;
  cls: CallClass;
  rank: number;
  /** When the account last had a call sent (ms), -Infinity when never in the last day. */
  lastServed: number;
  since: number;
}

/** A held in-flight slot: released when the call ends (or when its holder dies). */
export interface SlotLease {
  release(): Promise<void>;
}

export interface GovernorBackend {
  /** Every call of the last day (oldest first) and the upstream's holds, as of now. */
  state(now: number): Promise<GovernorState>;
  /**
   * Records `call` in the ledger if `stillAllowed` holds on the freshest state — check and record as
   * one step, across every instance. Returns the ledger id, or null when another call got there first.
   * The call is recorded before it is sent: a crash after this still counts it.
   */
  admit(call: NewCall, stillAllowed: (state: GovernorState) => boolean): Promise<number | null>;
  /**
   * Notes how a call ended (it counts either way) and when its answer came: from then on the call
   * counts from `at`, the one moment known to be no earlier than when the upstream counted it.
   */
  finish(id: number, outcome: string, at: number): Promise<void>;
  /**
   * Takes a recorded call back out: it was never sent (its turn was given back, or its caller went
   * away before it started), so it counts against no window.
   */
  withdraw(id: number): Promise<void>;
  /** The upstream answered 429: no call for this account before `until`. */
  block(account: string, until: number): Promise<void>;
  /**
   * One of the deployment's in-flight slots, and this account's only one; null when none is free
   * (another call, maybe of another instance, holds it).
   */
  tryAcquireSlot(account: string): Promise<SlotLease | null>;
  /**
   * Called when another instance may have freed a slot or changed the state, so waiting requests
   * are looked at again without waiting for a timer. Returns a function that stops listening.
   */
  onChange(listener: () => void): () => void;
  /** The requests waiting in this instance (class rank, account, since when), for fairness across instances. */
  publishWaiters(waiters: readonly WaitingCall[]): void;
  /**
   * Fairness across instances: whether this instance's best waiter (by class rank, then the
   * account least recently served) may take the slot now, or a waiter of another instance that
   * could go now (`canGo`) ranks before it. A single instance always may.
   */
  mayGoFirst(candidate: WaitingCall, canGo: (other: WaitingCall) => boolean): Promise<boolean>;
  /** Stops timers and listeners. */
  close(): Promise<void>;
}
