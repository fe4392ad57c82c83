/**
 * A runner's passes never overlap: two at once would both find the same export free and, with the
 * same lease holder, both start a worker on it (found by the stop-takeover test: two steps of one
 * export writing the same page). A kick while a pass runs still gets its pass, after it.
 */
import { describe, expect, it } from 'vitest';
import { BackgroundLoop } from './background-loop';

const settle = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('BackgroundLoop', () => {
  it('runs one pass at a time and one more for the kicks that came during it', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    let release: () => void = () => undefined;
    const loop = new BackgroundLoop({
      heartbeatMs: 60_000,
      now: Date.now,
      onTickError: (err) => {
        throw err;
      },
      tick: async () => {
        running += 1;
        most = Math.max(most, running);
        passes += 1;
        await new Promise<void>((r) => (release = r));
        running -= 1;
      },
    });
    loop.start();
    await settle();
    expect(passes).toBe(1);
    // Kicks while the first pass waits: none starts a pass beside it.
    loop.kick();
    loop.kick();
    await settle();
    loop.kick();
    await settle();
    expect(passes).toBe(1);
    release();
    await settle();
    // The kicks made during the first pass are one pass, after it.
    expect(passes).toBe(2);
    release();
    await settle();
    expect(passes).toBe(2);
    expect(most).toBe(1);
    await loop.stop([], 'test over');
  });

  it('starts no pass once stopped', async () => {
    let passes = 0;
    const loop = new BackgroundLoop({
      heartbeatMs: 60_000,
      now: Date.now,
      onTickError: () => undefined,
      tick: async () => {
        passes += 1;
      },
    });
    loop.start();
    await settle();
    await loop.stop([], 'test over');
    loop.kick();
    await settle();
    expect(passes).toBe(1);
  });
});
