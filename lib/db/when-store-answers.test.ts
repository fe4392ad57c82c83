import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenStoreAnswers } from './unavailable';

const down = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('work that must outlive a short store outage', () => {
  it('is tried again, later each time, until the store answers', async () => {
    let tries = 0;
    const waits: number[] = [];
    const result = whenStoreAnswers(
      async () => {
        tries += 1;
        if (tries < 4) throw down();
        return 'kept';
      },
      { maxWaitMs: 60_000, onWait: (_err, ms) => waits.push(ms) },
    );
    await vi.advanceTimersByTimeAsync(7_000);
    expect(await result).toBe('kept');
    expect(waits).toEqual([1_000, 2_000, 4_000]);
  });

  it('gives up after its longest wait, or at once for a failure of another kind, or when told to stop', async () => {
    const never = whenStoreAnswers(async () => Promise.reject(down()), { maxWaitMs: 10_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await never).toMatchObject({ code: 'ECONNREFUSED' });

    let tries = 0;
    const bug = whenStoreAnswers(
      async () => {
        tries += 1;
        throw new TypeError('a bug');
      },
      { maxWaitMs: 60_000 },
    );
    await expect(bug).rejects.toThrow('a bug');
    expect(tries).toBe(1);

    const stop = new AbortController();
    const stopped = whenStoreAnswers(async () => Promise.reject(down()), {
      maxWaitMs: 60_000,
      signal: stop.signal,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    stop.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(await stopped).toMatchObject({ code: 'ECONNREFUSED' });
  });
});
