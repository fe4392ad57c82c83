import type { CallClass } from '../../lib/governor/classes';
import type { CallLedger } from '../../lib/governor/memory-backend';

/** The durable ledger's contract in memory (the real one is tested in lib/governor/ledger-store.test.ts). */
export function fakeLedger(): CallLedger {
  const calls: ({ account: string; at: number; cls: CallClass } | undefined)[] = [];
  const blocks = new Map<string, number>();
  return {
    async recordCall(call) {
      calls.push({ account: call.account, at: call.at, cls: call.cls });
      return calls.length;
    },
    async finishCall() {},
    async withdrawCall(id) {
      calls[id - 1] = undefined;
    },
    async callsSince(since) {
      return calls
        .filter((c): c is NonNullable<typeof c> => c !== undefined && c.at >= since)
        .sort((a, b) => a.at - b.at);
    },
    async setBlockedUntil(account, until) {
      blocks.set(account, Math.max(until, blocks.get(account) ?? 0));
    },
    async blocksAfter(now) {
      return new Map([...blocks].filter(([, until]) => until > now));
    },
  };
}
