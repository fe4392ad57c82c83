/**
 * The queue's order, on its own: who goes first among the requests the decision lets go, and what
 * becomes of those that waited too long.
 */
import { describe, expect, it } from 'vitest';
import type { CallClass } from './classes';
import { CallQueue, lastServedOf } from './queue';
import { calls, NOW, state } from './test-ledger';
import { MINUTE_MS as MINUTE } from '../time/units';

function queueOf(...requests: [account: string, cls: CallClass, deadline?: number][]) {
  const queue = new CallQueue<number>();
  const waiters = requests.map(([account, cls, deadline]) =>
    queue.add({
      account,
      cls,
      kind: 'query',
      lastServed: Number.NEGATIVE_INFINITY,
      since: NOW,
      deadline: deadline ?? NOW + MINUTE,
      start: () => {},
      fail: () => {},
    }),
  );
  return { queue, waiters };
}

const everyone = () => true;
const neverServed = () => Number.NEGATIVE_INFINITY;
const turnOf = (queue: CallQueue<number>, lastServed: (account: string) => number = neverServed) =>
  queue.next(everyone, lastServed)?.account;

describe('the queue', () => {
  it('serves the person of a shared account served least recently first, then arrival', () => {
    const queue = new CallQueue<number>();
    const add = (person?: string) =>
      queue.add({
        account: 'team',
        cls: 'interactive',
        kind: 'query',
        ...(person ? { person } : {}),
        lastServed: Number.NEGATIVE_INFINITY,
        since: NOW,
        deadline: NOW + MINUTE,
        start: () => {},
        fail: () => {},
      });
    const sora1 = add('sora');
    const sora2 = add('sora');
    const vic = add('vic');
    const take = () => {
      const w = queue.next(everyone, neverServed)!;
      queue.remove(w);
      queue.served(w, NOW);
      return w;
    };
    expect(take()).toBe(sora1);
    // Sora was just served: Vic goes before Sora's second, though it came later.
    expect(take()).toBe(vic);
    expect(take()).toBe(sora2);
  });

  it('serves people before sign-ins, sign-ins before exports, exports before the sync', () => {
    const { queue } = queueOf(
      ['sync-account', 'sync'],
      ['exporter', 'export'],
      ['(sign-in)', 'signin'],
      ['p', 'interactive'],
    );
    const order: string[] = [];
    for (let w = queue.next(everyone, neverServed); w; w = queue.next(everyone, neverServed)) {
      order.push(w.account);
      queue.remove(w);
    }
    expect(order).toEqual(['p', '(sign-in)', 'exporter', 'sync-account']);
  });

  it('serves, within a class, the account served least recently first, then the first to come', () => {
    const { queue } = queueOf(['busy', 'interactive'], ['quiet', 'interactive'], ['quiet', 'interactive']);
    const ledger = state(calls('busy', 1, 'interactive', MINUTE), calls('quiet', 1, 'interactive', 10 * MINUTE));
    expect(turnOf(queue, (a) => lastServedOf(ledger, a))).toBe('quiet');
    // Never served at all: before both.
    const { queue: withNew } = queueOf(['quiet', 'interactive'], ['new', 'interactive']);
    expect(turnOf(withNew, (a) => lastServedOf(ledger, a))).toBe('new');
    // Alike in class and age: first come, first served.
    const { queue: fifo, waiters } = queueOf(['a', 'interactive'], ['b', 'interactive']);
    expect(fifo.next(everyone, neverServed)).toBe(waiters[0]);
  });

  it('gives the turn only to those the decision lets go', () => {
    const { queue } = queueOf(['held', 'interactive'], ['free', 'export']);
    expect(queue.next((w) => w.account !== 'held', neverServed)?.account).toBe('free');
    expect(queue.next(() => false, neverServed)).toBeUndefined();
  });

  it('takes out those whose wait is over, and counts what an account has queued', () => {
    const { queue } = queueOf(['a', 'interactive', NOW + 1000], ['a', 'export', NOW + MINUTE], ['b', 'interactive']);
    expect(queue.queuedFor('a')).toEqual({ interactive: 1, background: 1 });
    expect(queue.takeExpired(NOW + 1000).map((w) => [w.account, w.cls])).toEqual([['a', 'interactive']]);
    expect(queue.queuedFor('a')).toEqual({ interactive: 0, background: 1 });
    expect(queue.size).toBe(2);
  });

  it('says when an account was last served: its newest call, or never in the last day', () => {
    const ledger = state(calls('a', 3, 'interactive', 5 * MINUTE));
    expect(lastServedOf(ledger, 'a')).toBe(NOW - 5 * MINUTE);
    expect(lastServedOf(ledger, 'b')).toBe(Number.NEGATIVE_INFINITY);
  });
});
