import { describe, expect, it } from 'vitest';
import { drainWorkers, type Worker } from './drain-workers';

/** A worker whose step ends after `ms`, or when aborted. */
function worker(ms: number): Worker & { aborted: () => boolean } {
  const abort = new AbortController();
  const done = new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    abort.signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });
  return {
    abort,
    done,
    aborted: () =>
      abort.signal.aborted && abort.signal.reason instanceof Error && abort.signal.reason.message === 'stop',
  };
}

describe('stopping background workers', () => {
  it('lets a step in flight finish (its call is paid for) and aborts only one still busy after the grace', async () => {
    const quick = worker(20);
    const stuck = worker(60_000);
    const started = Date.now();
    await drainWorkers([quick, stuck], 'stop', 200);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The quick one had ended before the abort came.
    await expect(
      Promise.race([quick.done.then(() => 'ended'), new Promise((r) => setTimeout(() => r('pending'), 0))]),
    ).resolves.toBe('ended');
    expect(stuck.aborted()).toBe(true);
  });

  it('returns as soon as every step has ended', async () => {
    const started = Date.now();
    await drainWorkers([worker(10), worker(30)], 'stop', 10_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
