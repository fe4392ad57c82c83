import { describe, expect, it } from 'vitest';
import { firstKeptDay } from './retention';

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
