import { describe, expect, it } from 'vitest';
import { firstKeptDay, sinceBounds } from './retention';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

describe('firstKeptDay', () => {
  it('keeps HISTORY_MAX_DAYS back from today, and not a day more', () => {
    expect(firstKeptDay(null, NOW, 400)).toBe('2025-10-23');
    expect(firstKeptDay(null, NOW, 1)).toBe('2026-11-26');
  });

  it('keeps from the start day when it is later, and never before HISTORY_MAX_DAYS when it is earlier', () => {
    expect(firstKeptDay('2026-11-01', NOW, 400)).toBe('2026-11-01');
    expect(firstKeptDay('2020-01-01', NOW, 400)).toBe('2025-10-23');
    expect(firstKeptDay('2026-11-20', NOW, 3)).toBe('2026-11-24');
  });
});

describe('sinceBounds', () => {
  it('bounds the start day by the server’s today and HISTORY_MAX_DAYS', () => {
    // Any time of the server's day: the bounds are UTC days.
    expect(sinceBounds(Date.UTC(2026, 10, 20, 23, 59, 59), 400)).toEqual({
      min: '2025-10-16',
      max: '2026-11-20',
    });
    expect(sinceBounds(Date.UTC(2026, 2, 1, 0, 0, 0), 31)).toEqual({
      min: '2026-01-29',
      max: '2026-03-01',
    });
  });
});
