import { describe, expect, it, vi } from 'vitest';
import { PaidPages } from './paid-pages';

describe('pages paid for and not stored yet', () => {
  it('are given again without a call until stored, then called for afresh', async () => {
    const paid = new PaidPages();
    const call = vi.fn(async () => ({ calls: 1, page: 'p1' }));
    expect(await paid.fetch('k', call)).toEqual({ calls: 1, page: 'p1' });
    // The store write failed: the step runs again and stores the same page, paying nothing.
    expect(await paid.fetch('k', call)).toEqual({ calls: 1, page: 'p1' });
    expect(call).toHaveBeenCalledTimes(1);
    paid.stored('k');
    await paid.fetch('k', call);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('holds nothing for a call that failed, and at most 64 pages', async () => {
    const paid = new PaidPages();
    await expect(paid.fetch('x', async () => Promise.reject(new Error('timeout')))).rejects.toThrow('timeout');
    expect(paid.size).toBe(0);
    for (let i = 0; i < 70; i++) await paid.fetch(`k${i}`, async () => ({ calls: 1 }));
    expect(paid.size).toBe(64);
    const again = vi.fn(async () => ({ calls: 1 }));
    await paid.fetch('k0', again);
    expect(again).toHaveBeenCalledTimes(1);
  });
});
