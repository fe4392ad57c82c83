/**
 * The governor's state for a single instance: every call of the last day and the upstream's holds
 * kept in memory, read once from the durable ledger at the first decision (so a restart forgets
 * nothing) and written through to it with each call. One process decides alone, so "check and
 * record" is one synchronous step and the in-flight slots are a counter. The SQLite backend
 * refuses a second process on the same data folder (lib/store), which keeps that true.
 */
import type { GovernorBackend, NewCall, SlotLease } from './backend';
import type { CallRecord, GovernorState } from './decision';
import { STATE_SPAN_MS } from './windows';

/** The durable side: the ledger of calls and the upstream's holds. */
export interface CallLedger {
  /** Records a call about to be sent; returns its id. */
  recordCall(call: NewCall): Promise<number>;
  /** Notes how the call ended (for the record; it counts either way) and moves its time to `at` when later. */
  finishCall(id: number, outcome: string, at: number): Promise<void>;
  /** Forgets a call recorded but never sent. */
  withdrawCall(id: number): Promise<void>;
  /** Every call sent at or after `since`, oldest first. */
  callsSince(since: number): Promise<CallRecord[]>;
  /** The upstream answered 429: do not call for this account before `until`. */
  setBlockedUntil(account: string, until: number): Promise<void>;
  /** Holds still in force at `now`, by account. */
  blocksAfter(now: number): Promise<Map<string, number>>;
}

export function memoryBackend(ledger: CallLedger, maxInFlight: number): GovernorBackend {
  let loaded: Promise<void> | undefined;
  let calls: CallRecord[] = [];
  let blocks = new Map<string, number>();
  const busy = new Set<string>();
  /** Calls sent and not answered yet, by ledger id (their time moves to the answer's). */
  const unanswered = new Map<number, CallRecord>();

  /** `calls` with `record` placed by its time (oldest first); a new array, so earlier states stay as they were. */
  const placed = (list: readonly CallRecord[], record: CallRecord): CallRecord[] => {
    let i = list.length;
    while (i > 0 && list[i - 1]!.at > record.at) i -= 1;
    return [...list.slice(0, i), record, ...list.slice(i)];
  };

  const load = (now: number) =>
    (loaded ??= (async () => {
      const [recent, held] = await Promise.all([ledger.callsSince(now - STATE_SPAN_MS), ledger.blocksAfter(now)]);
      calls = [...recent, ...calls].sort((a, b) => a.at - b.at);
      for (const [account, until] of held) blocks.set(account, Math.max(until, blocks.get(account) ?? 0));
    })());

  const current = (now: number): GovernorState => {
    // What no window can see any more is dropped: memory does not grow with the days.
    let drop = 0;
    while (drop < calls.length && calls[drop]!.at <= now - STATE_SPAN_MS) drop += 1;
    if (drop > 0) calls = calls.slice(drop);
    for (const [account, until] of blocks) if (until <= now) blocks.delete(account);
    return { calls, blocks };
  };

  return {
    async state(now) {
      await load(now);
      return current(now);
    },
    async admit(call, stillAllowed) {
      await load(call.at);
      if (!stillAllowed(current(call.at))) return null;
      const record: CallRecord = { account: call.account, at: call.at, cls: call.cls };
      calls = placed(calls, record);
      const id = await ledger.recordCall(call);
      unanswered.set(id, record);
      return id;
    },
    async finish(id, outcome, at) {
      const record = unanswered.get(id);
      unanswered.delete(id);
      if (record && at > record.at)
        calls = placed(
          calls.filter((c) => c !== record),
          { ...record, at },
        );
      await ledger.finishCall(id, outcome, at);
    },
    async withdraw(id) {
      const record = unanswered.get(id);
      unanswered.delete(id);
      if (record) calls = calls.filter((c) => c !== record);
      await ledger.withdrawCall(id);
    },
    async block(account, until) {
      blocks = new Map(blocks).set(account, Math.max(until, blocks.get(account) ?? 0));
      await ledger.setBlockedUntil(account, until);
    },
    async tryAcquireSlot(account) {
      if (busy.size >= maxInFlight || busy.has(account)) return null;
      busy.add(account);
      let released = false;
      const lease: SlotLease = {
        async release() {
          if (released) return;
          released = true;
          busy.delete(account);
        },
      };
      return lease;
    },
    onChange: () => () => {},
    publishWaiters: () => {},
    mayGoFirst: async () => true,
    close: async () => {},
  };
}
