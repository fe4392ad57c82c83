import { describe, expect, it } from 'vitest';
import type { StoredMatch, StoredRow } from './job-row';
import { SummaryTally } from './summary';
import { answerHeader, rowLines } from './answer-file';
import { presentRow } from './present';
import { rowWords } from './row-words';

const words = rowWords('en');

const record = (trx: string, status: string, price: string, parts = 1, currency = 'JPY'): StoredMatch => ({
  trx_id: trx,
  date_received: '2026-11-01T01:00:00.000+0000',
  delivery_status: status,
  dlr_error_code: status === 'DELIVRD' ? '000' : '001',
  dlr_reason: '',
  network_code: '44010',
  network_name: 'NTT docomo',
  date_submitted_to_mno: '2026-11-01T01:00:01.000+0000',
  date_delivered: '2026-11-01T01:00:04.500+0000',
  how_many_message_parts: parts,
  price,
  price_currency: currency,
  to_address: '819012345678',
  ref: 'ORD-1',
});

let n = 0;
function row(outcome: StoredRow['outcome'], matches: StoredMatch[], extra: Partial<StoredRow> = {}): StoredRow {
  n += 1;
  return {
    row: n,
    value: outcome === 'invalid' ? null : `v${n}`,
    spanFrom: 0,
    spanTo: 1,
    sentAt: null,
    cost: null,
    cells: [`c${n}`],
    outcome,
    problem: outcome === 'invalid' ? { code: 'trx-id-length', values: { length: 31 } } : null,
    matches,
    ...extra,
  };
}

describe('the summary', () => {
  it('counts rows by outcome, and each record found once by status, with the delivery rate, parts and cost', () => {
    const a = record('a', 'DELIVRD', '3.30000000', 2);
    const b = record('b', 'UNDELIV', '3.30000000');
    const c = record('c', 'DELIVRD', '0.01000000', 1, 'USD');
    const tally = new SummaryTally({ count: 4, cost: null, currency: null }, 'UTC');
    for (const r of [
      row('matched', [a]),
      row('matched', [a], { value: 'v1' }), // the same value again: repeated, its record counted once
      row('several', [b, c]),
      row('not_found', []),
      row('invalid', []),
      row('pending', []),
    ])
      tally.add(r);
    const s = tally.summary();
    expect(s.outcomes).toEqual({ matched: 2, not_found: 1, several: 1, invalid: 1 });
    expect([s.pending, s.repeated, s.records, s.delivered, s.parts]).toEqual([1, 1, 3, 2, 4]);
    expect(s.byStatus).toEqual({ DELIVRD: 2, UNDELIV: 1 });
    expect(s.deliveryRate).toBeCloseTo(2 / 3);
    expect(s.cost).toEqual([
      { currency: 'JPY', total: '6.60000000', records: 2 },
      { currency: 'USD', total: '0.01000000', records: 1 },
    ]);
    expect(s.variance.count).toEqual({ expected: 4, actual: 3, difference: -1, percent: -25 });
  });

  it('sets the cost against a cost column per day of the send times, in the currency most records were charged in', () => {
    const day1 = Date.UTC(2026, 10, 1, 10);
    const day2 = Date.UTC(2026, 10, 2, 10);
    const tally = new SummaryTally({ count: null, cost: null, currency: null }, 'JST');
    tally.add(row('matched', [record('a', 'DELIVRD', '3.30000000')], { sentAt: day1, cost: '3.30' }));
    tally.add(row('not_found', [], { sentAt: day1, cost: '3.30' }));
    tally.add(row('matched', [record('b', 'DELIVRD', '3.52000000')], { sentAt: day2, cost: '3.30' }));
    const s = tally.summary();
    expect(s.variance.cost).toEqual({
      currency: 'JPY',
      expected: '9.90000000',
      actual: '6.82000000',
      difference: '-3.08000000',
      percent: -31.1,
    });
    expect(s.variance.byDay).toEqual([
      {
        day: '2026-11-01',
        count: { expected: 2, actual: 1, difference: -1, percent: -50 },
        cost: {
          currency: 'JPY',
          expected: '6.60000000',
          actual: '3.30000000',
          difference: '-3.30000000',
          percent: -50,
        },
      },
      {
        day: '2026-11-02',
        count: { expected: 1, actual: 1, difference: 0, percent: 0 },
        cost: { currency: 'JPY', expected: '3.30000000', actual: '3.52000000', difference: '0.22000000', percent: 6.7 },
      },
    ]);
  });
});

describe('the answered file', () => {
  it('writes the uploaded columns first, then the answer, a line per record of a row that found several', () => {
    const columns = ['trx_id', 'memo'];
    expect(answerHeader(columns).slice(0, 4)).toEqual(['outcome', 'problem', 'match', 'answer_trx_id']);
    const r = row('several', [record('a', 'DELIVRD', '3.30000000'), record('b', 'UNDELIV', '3.30000000')], {
      cells: ['x', '=HYPERLINK("evil")'],
    });
    const lines = rowLines(presentRow(r, columns, 'JST', words), columns, false, words.dlr).split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^x,"'=HYPERLINK\(""evil""\)",several,,1\/2,a,2026-11-01T10:00:00.000\+0900,DELIVRD,/);
    expect(lines[1]).toContain(',2/2,b,');
    // The latency worked out (3.5 s), the number as it came; for Excel, a number it would change is written as text.
    expect(lines[0]).toContain(',3500,1,3.30000000,JPY,819012345678,ORD-1');
    expect(rowLines(presentRow(r, columns, 'JST', words), columns, true, words.dlr)).toContain('"=""819012345678"""');
  });

  it('writes an invalid row once, with why', () => {
    const line = rowLines(presentRow(row('invalid', []), ['value'], 'UTC', words), ['value'], false, words.dlr);
    expect(line).toMatch(/^c\d+,invalid,A transaction ID has 32 characters; this one has 31\.,,/);
  });
});
