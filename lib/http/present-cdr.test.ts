import { describe, expect, it } from 'vitest';
import type { Cdr } from '../cdr/schema';
import { jsonBytes } from './json-text';
import { sampleCdr } from '../upstream/test-fixtures';
import { presentCdr } from './present-cdr';

describe('a presented record', () => {
  it('shows its times in the zone asked for and links to the dashboard, leaving the upstream’s record as it was', () => {
    const upstream = sampleCdr() as Cdr;
    const before = JSON.stringify(upstream);
    const jst = presentCdr(upstream, 'JST');
    expect(jst.date_received).toBe('2025-10-01T18:15:02.123+0900');
    expect(jst.date_delivered).toBe('2025-10-01T18:15:04.000+0900');
    expect(jst._links?.self?.href).toBe(`/api/transactions/${upstream.trx_id}?tz=JST`);
    expect(presentCdr(upstream, 'UTC').date_received).toBe('2025-10-01T09:15:02.123+0000');
    expect(JSON.stringify(upstream)).toBe(before);
  });

  it('is made once per record and zone, and its JSON once with it', () => {
    const upstream = sampleCdr() as Cdr;
    const utc = presentCdr(upstream, 'UTC');
    expect(presentCdr(upstream, 'UTC')).toBe(utc);
    expect(presentCdr(upstream, 'JST')).not.toBe(utc);
    expect(jsonBytes(utc)).toBe(jsonBytes(presentCdr(upstream, 'UTC')));
    // A record read again from the upstream is a new record: presented afresh.
    expect(presentCdr(sampleCdr() as Cdr, 'UTC')).not.toBe(utc);
  });
});
