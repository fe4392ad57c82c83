import { describe, expect, it } from 'vitest';
import type { QuotaSnapshot } from './api';
import { quotaSnapshot } from '@/tests/support/quota-snapshot';
import { quotaWaitUntil, tightestWindow } from './quota-words';

const NOW = Date.parse('2026-11-20T12:00:00Z');

const quota = (remaining: [number, number, number], nextCallAt = '2026-11-20T11:59:00Z') =>
  quotaSnapshot(remaining, { nextCallAt });

describe('quota in words', () => {
  it('says when the dashboard’s shared calls are the tighter budget', () => {
    const q: QuotaSnapshot = {
      ...quota([3, 8, 90]),
      shared: [{ name: 'hour', limit: 10, used: 8, remaining: 2, freesAt: null, accounts: 3 }],
    };
    expect(tightestWindow(q)).toMatchObject({ name: 'hour', shared: true, remaining: 2 });
  });

  it('names the window with the fewest calls left, the longer one on a tie', () => {
    expect(tightestWindow(quota([3, 7, 93]))?.name).toBe('minute');
    expect(tightestWindow(quota([2, 2, 50]))?.name).toBe('hour');
  });

  it('knows when the next call can go: the later of nextCallAt and blockedUntil', () => {
    expect(quotaWaitUntil(quota([0, 7, 93], '2026-11-20T12:00:41Z'))).toBe(NOW + 41_000);
    expect(quotaWaitUntil({ ...quota([3, 7, 93]), blockedUntil: '2026-11-20T12:05:00Z' })).toBe(NOW + 300_000);
  });
});
