import { describe, expect, it } from 'vitest';
import { csvFileName } from './file-name';

const query = (filters: Record<string, string>) => ({
  from: new Date('2026-11-18T00:00:00Z'),
  to: new Date('2026-11-26T00:00:00Z'),
  tz: 'UTC' as const,
  filters,
});

describe('a CSV file name', () => {
  it('says the range, zone and filters', () => {
    expect(csvFileName(query({ status: 'DELIVRD' }), { page: 2 })).toBe(
      'sms_2026-11-18T0000_2026-11-26T0000_UTC_status-DELIVRD_p2.csv',
    );
  });

  it('keeps free text in any script, and makes anything a file system could choke on `_`', () => {
    expect(csvFileName(query({ q: '認証コード' }))).toBe('sms_2026-11-18T0000_2026-11-26T0000_UTC_q-認証コード.csv');
    expect(csvFileName(query({ q: 'a/b\\\\c:"d"' }))).toBe('sms_2026-11-18T0000_2026-11-26T0000_UTC_q-a_b_c_d.csv');
  });
});
