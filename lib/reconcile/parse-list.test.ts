import { describe, expect, it } from 'vitest';
import { parseListText, parseListValues, readCost } from './parse-list';
import { readSendTime, SLACK_MS } from './send-time';
import { readValue } from './list-values';

const ID = '956f5b9f1adb4ad8b8c5d6e7f8091a2b';

function list(text: string, opts: Parameters<typeof parseListText>[1] = { tz: 'UTC' }) {
  const r = parseListText(text, opts);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.list;
}

describe('reading a value as the rest of the dashboard reads it', () => {
  it('takes a trx_id in any form the lookup box takes', () => {
    for (const typed of [
      ID.toUpperCase(),
      '956F5B9F-1ADB-4AD8-B8C5-D6E7F8091A2B',
      `https://sms.example.com/transactions/${ID}`,
      '９５６ｆ５ｂ９ｆ１ａｄｂ４ａｄ８ｂ８ｃ５ｄ６ｅ７ｆ８０９１ａ２ｂ',
    ])
      expect(readValue('trx_id', typed)).toEqual({ ok: true, value: ID });
    expect(readValue('trx_id', '956f5b9f')).toEqual({ ok: false, code: 'trx-id-length', values: { length: 8 } });
    expect(readValue('trx_id', 'not-an-id')).toEqual({ ok: false, code: 'trx-id-characters' });
  });

  it('takes a number as the da filter normalises it, and a reference folded', () => {
    for (const typed of ['+81 90-1234-5678', '090-1234-5678', '０９０－１２３４－５６７８', '819012345678'])
      expect(readValue('da', typed)).toEqual({ ok: true, value: '819012345678' });
    expect(readValue('da', 'call me')).toMatchObject({ ok: false, code: 'not-a-number' });
    expect(readValue('client-reference', 'ＯＲＤ－２０２６－００１２３４５')).toEqual({
      ok: true,
      value: 'ORD-2026-0012345',
    });
    expect(readValue('client-reference', '  ')).toMatchObject({ ok: false, code: 'empty' });
  });
});

describe('reading a send time', () => {
  const at = Date.UTC(2026, 10, 1, 1, 0, 5);
  it('reads the ways send logs write it, a wall clock in the zone given', () => {
    for (const text of [
      '2026-11-01 10:00:05',
      '2026/11/1 10:00:05',
      '2026年11月1日 10時00分05秒',
      '2026-11-01T01:00:05Z',
      '2026-11-01T10:00:05+09:00',
      '2026-11-01T10:00:05.000+0900',
      '２０２６－１１－０１　１０：００：０５',
    ])
      expect(readSendTime(text, 'JST'), text).toEqual({
        at,
        from: at - SLACK_MS,
        to: at + SLACK_MS,
        wholeDay: false,
      });
  });

  it('reads a date alone as its whole day, and refuses what is not a time', () => {
    const day = Date.UTC(2026, 9, 31, 15);
    expect(readSendTime('2026/11/01', 'JST')).toEqual({ at: day, from: day, to: day + 86_400_000 - 1, wholeDay: true });
    expect(readSendTime('yesterday', 'UTC')).toBeNull();
    expect(readSendTime('2026-02-30 10:00', 'UTC')).toBeNull();
  });
});

describe('reading an uploaded list', () => {
  it('finds the value, time and cost columns by their headers, English or Japanese', () => {
    const l = list(`送信日時,宛先番号,料金,メモ\n2026-11-01 10:00,090-1234-5678,¥3.30,a\n`);
    expect(l).toMatchObject({ kind: 'da', valueColumn: 1, timeColumn: 0, costColumn: 2 });
    expect(l.columns).toEqual(['送信日時', '宛先番号', '料金', 'メモ']);
    expect(l.rows[0]).toMatchObject({ row: 1, value: '819012345678', cost: '3.30' });
  });

  it('reads a paste from a spreadsheet (tabs) and a list without a header, guessing its kind', () => {
    expect(list(`trx_id\tsent_at\n${ID}\t2026-11-01 10:00\n`)).toMatchObject({ kind: 'trx_id', timeColumn: 1 });
    const bare = list(`${ID}\n\n${ID.toUpperCase()}\n`);
    expect(bare.kind).toBe('trx_id');
    expect(bare.columns).toEqual(['value']);
    // A blank line is no row, and keeps its number: row 3 is the third line.
    expect(bare.rows.map((r) => r.row)).toEqual([1, 3]);
    expect(list('819012345678\n0312345678\n').kind).toBe('da');
    expect(list('ORD-2026-0000001\nORD-2026-0000002\n').kind).toBe('client-reference');
  });

  it('takes the column the person chose, by name or number, and says which columns exist when it is wrong', () => {
    const text = `a,b\nx,${ID}\n`;
    expect(list(text, { tz: 'UTC', column: '2', kind: 'trx_id' }).rows[0]!.value).toBe(ID);
    expect(list(text, { tz: 'UTC', column: 'b', kind: 'trx_id' }).rows[0]!.value).toBe(ID);
    // A mistyped first value stays a row (listed as invalid), not taken for a header.
    const typo = list([ID.slice(1), ...Array.from({ length: 9 }, () => ID)].join('\n'));
    expect(typo.kind).toBe('trx_id');
    expect(typo.rows.slice(0, 2).map((r) => r.problem?.code ?? null)).toEqual(['trx-id-length', null]);
    const wrong = parseListText(text, { tz: 'UTC', column: 'c' });
    expect(wrong).toMatchObject({
      ok: false,
      errors: {
        column: { key: 'reconcile.problems.columnUnknown', values: { choice: 'c', columns: '"a", "b"', width: 2 } },
      },
    });
  });

  it('keeps every bad row with why, never dropping one', () => {
    const l = list(`trx_id,sent_at,cost\n${ID},2026-11-01 10:00,3.30\nnope,,\n${ID},someday,\n${ID},,free\n`);
    expect(l.rows.map((r) => [r.row, r.problem?.code ?? null])).toEqual([
      [1, null],
      [2, 'trx-id-characters'],
      [3, 'not-a-time'],
      [4, 'not-a-cost'],
    ]);
    expect(l.rows[2]!.problem!.values).toEqual({ cell: 'someday' });
  });

  it('refuses an empty list and one over 100,000 rows', () => {
    expect(parseListText('trx_id\n', { tz: 'UTC' })).toMatchObject({
      ok: false,
      errors: { file: { key: 'reconcile.problems.noRows' } },
    });
    const many = Array.from({ length: 100_001 }, () => ID).join('\n');
    expect(parseListText(many, { tz: 'UTC' })).toMatchObject({
      ok: false,
      errors: { file: { key: 'reconcile.problems.tooManyRows', values: { rows: 100_001, max: 100_000 } } },
    });
  });

  it('reads a JSON list of values, with send times and costs when given', () => {
    const r = parseListValues(
      [ID, { value: ID.toUpperCase(), 'sent-at': '2026-11-01 10:00', cost: 3.3 }, 42],
      'trx_id',
      'UTC',
    );
    if (!r.ok) throw new Error('not read');
    expect(r.list.columns).toEqual(['trx_id', 'sent-at', 'cost']);
    expect(r.list.rows.map((x) => [x.value, x.span?.at ?? null, x.cost, x.problem?.code ?? null])).toEqual([
      [ID, null, null, null],
      [ID, Date.UTC(2026, 10, 1, 10), '3.3', null],
      [null, null, null, 'trx-id-length'],
    ]);
  });

  it('reads costs as people write them', () => {
    expect(['3.30', '¥3.30', 'JPY 1,234.5', '３．３０', '12円'].map(readCost)).toEqual([
      '3.30',
      '3.30',
      '1234.5',
      '3.30',
      '12',
    ]);
    expect(readCost('')).toBeNull();
    expect(readCost('free')).toBe('bad');
  });
});
