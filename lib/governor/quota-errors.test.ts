import { describe, expect, it } from 'vitest';
import { QuotaExceededError } from './quota-errors';
import { HOUR_MS as HOUR, MINUTE_MS as MINUTE } from '../time/units';

describe('how long a refused call waits, in words', () => {
  it('says seconds, then minutes, then hours and minutes (a day window is not "1440 min")', () => {
    const said = (ms: number) => new QuotaExceededError('day', Date.now() + ms, ms, 'account').message;
    expect(said(45_000)).toContain('the next call can go in 45 s');
    expect(said(30 * MINUTE)).toContain('the next call can go in 30 min');
    expect(said(24 * HOUR)).toContain('the next call can go in 24 h.');
    expect(said(23 * HOUR + 59 * MINUTE)).toContain('the next call can go in 23 h 59 min');
  });
});
