import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdNextView, takeHeldView } from './held-after-sign-in';

describe('the mark a sign-in opened from another site leaves for the next view', () => {
  beforeEach(() => {
    const items = new Map<string, string>();
    vi.stubGlobal('window', {});
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('holds the view of its path once (a second drawing at once agrees), and no other', () => {
    const now = 1_000_000;
    holdNextView('/transactions?date-from=2026-11-01+00%3A00%3A00&row=abc', now);
    expect(takeHeldView('/history', now)).toBe(false);
    expect(takeHeldView('/transactions', now + 10)).toBe(true);
    expect(takeHeldView('/transactions', now + 20)).toBe(true);
    // Taken: a later visit to the page is the person's own.
    expect(takeHeldView('/transactions', now + 5_000)).toBe(false);
  });

  it('goes stale: a sign-in whose page spends nothing leaves no hold for later', () => {
    holdNextView('/transactions/0123', 0);
    expect(takeHeldView('/transactions/0123', 60_000)).toBe(false);
  });
});
