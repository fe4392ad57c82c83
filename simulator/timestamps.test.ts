/** The memoised timestamp writer must say exactly what lib/time/zones.ts says. */
import { describe, expect, it } from 'vitest';
import { formatUpstreamTimestamp } from '../lib/time/zones';
import { Rng } from './rng';
import { upstreamTimestamp } from './timestamps';

describe('upstreamTimestamp', () => {
  it('equals formatUpstreamTimestamp in UTC and JST, boundaries included', () => {
    const rng = new Rng(1);
    const instants = [
      Date.UTC(2026, 0, 1, 0, 0, 0, 0),
      Date.UTC(2025, 11, 31, 14, 59, 59, 999), // 23:59:59.999 JST on New Year's Eve
      Date.UTC(2025, 11, 31, 15, 0, 0, 0), // midnight JST
      Date.UTC(2028, 1, 29, 23, 59, 59, 1),
      ...Array.from({ length: 500 }, () => Date.UTC(2020, 0, 1) + Math.floor(rng.next() * 10 * 365 * 86_400_000)),
    ];
    for (const ms of instants) {
      for (const zone of ['UTC', 'JST'] as const)
        expect(upstreamTimestamp(ms, zone)).toBe(formatUpstreamTimestamp(new Date(ms), zone));
    }
  });
});
