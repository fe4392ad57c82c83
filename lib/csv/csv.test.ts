import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import type { CdrFieldKey } from '../cdr/fields';
import { stringify } from 'csv-stringify/sync';
import { ALL_COLUMNS, csvHeader, csvLineWriter, neutraliseCell, parseColumns, recordsToCsv } from './csv';

const BOM = '\uFEFF';
const cols: CdrFieldKey[] = ['trx_id', 'ref', 'from_address'];

function csvOf(values: string[]): string {
  return recordsToCsv(
    values.map((v, i) => ({ trx_id: `t${i}`, ref: v, from_address: 'x' })),
    cols,
  );
}

/** The body lines after the BOM and header, split on CRLF only (a bare LF stays inside a cell). */
function cellsOfFirstRow(csv: string): string {
  const body = csv.slice(BOM.length).split('\r\n');
  return body[1] ?? '';
}

/** The document written in parts, as an export's file is: the header, then each row's line. */
function inParts(records: Record<string, unknown>[], columns: CdrFieldKey[], forExcel = false): string {
  const line = csvLineWriter(columns, forExcel);
  return [csvHeader(columns), ...records.map((r) => line(r))].join('');
}

describe('the CSV writer', () => {
  it('starts with a UTF-8 BOM and a header row of field names, and ends records with CRLF', () => {
    const csv = csvOf(['plain']);
    expect(csv.startsWith(BOM)).toBe(true);
    expect(csv).toBe(`${BOM}trx_id,ref,from_address\r\nt0,plain,x\r\n`);
  });

  it('for Excel, writes the digits Excel would change as text (="…"): leading zeros, 12 digits or more', () => {
    const record = {
      to_address: '819058653557',
      dlr_error_code: '000',
      network_code: '44010',
      how_many_message_parts: 2,
      price: '3.30',
      ref: '=1+1',
    };
    const columns: CdrFieldKey[] = [
      'to_address',
      'dlr_error_code',
      'network_code',
      'how_many_message_parts',
      'price',
      'ref',
    ];
    const excel = recordsToCsv([record], columns, true);
    expect(cellsOfFirstRow(excel)).toBe(`"=""819058653557""","=""000""",44010,2,3.30,"'=1+1"`);
    // The same in parts (an export's file); and nothing of it without the option.
    expect(inParts([record], columns, true)).toBe(excel);
    expect(cellsOfFirstRow(recordsToCsv([record], columns))).toBe(`819058653557,000,44010,2,3.30,"'=1+1"`);
  });

  it('quotes commas, doubles quotes and keeps newlines inside quoted cells (RFC 4180)', () => {
    expect(cellsOfFirstRow(csvOf(['a,b']))).toBe('t0,"a,b",x');
    expect(cellsOfFirstRow(csvOf(['say "hi"']))).toBe('t0,"say ""hi""",x');
    const multi = csvOf(['line1\nline2']);
    expect(multi).toContain('t0,"line1\nline2",x\r\n');
    expect(csvOf(['a\r\nb'])).toContain('t0,"a\r\nb",x\r\n');
  });

  it('writes Japanese and emoji as UTF-8, untouched', () => {
    const csv = csvOf(['お知らせ：配達完了 📦✅']);
    expect(cellsOfFirstRow(csv)).toBe('t0,お知らせ：配達完了 📦✅,x');
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('writes empty strings, null and undefined as empty cells', () => {
    const csv = recordsToCsv([{ trx_id: 'a', ref: '', from_address: null }, { trx_id: 'b' }], cols);
    expect(csv).toBe(`${BOM}trx_id,ref,from_address\r\na,,\r\nb,,\r\n`);
  });

  it.each([
    ['=1+2', `"'=1+2"`],
    ['+81 90 1234', `"'+81 90 1234"`],
    ['-5', `"'-5"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tcmd', `"'\tcmd"`],
    ['\rcmd', `"'\rcmd"`],
    ['\ncmd', `"'\ncmd"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['\uFF1D1+2', `"'\uFF1D1+2"`],
  ])('neutralises a cell starting with a formula character: %j', (value, expected) => {
    expect(cellsOfFirstRow(csvOf([value]))).toBe(`t0,${expected},x`);
  });

  it('leaves a formula character that is not first alone', () => {
    expect(cellsOfFirstRow(csvOf(['a=b', '1-2']))).toBe('t0,a=b,x');
    expect(neutraliseCell('a-b')).toBe('a-b');
  });

  it('writes numbers as numbers (a negative count is not a formula)', () => {
    const csv = recordsToCsv(
      [
        { trx_id: 'a', how_many_message_parts: 3 },
        { trx_id: 'b', how_many_message_parts: -1 },
      ],
      ['trx_id', 'how_many_message_parts'],
    );
    expect(csv).toBe(`${BOM}trx_id,how_many_message_parts\r\na,3\r\nb,-1\r\n`);
  });

  it('writes the same bytes in parts as the whole-document writer, with one BOM and one header', () => {
    const records = ['plain', 'a,b', '=x', 'お知らせ\n2行目', '', '📦'].map((ref, i) => ({
      trx_id: `t${i}`,
      ref,
      from_address: '-x',
    }));
    const whole = recordsToCsv(records, cols);
    expect(inParts(records, cols)).toBe(whole);
    expect(inParts(records, cols).split(BOM).length).toBe(2);
    expect(inParts(records, cols).split('trx_id,ref,from_address').length).toBe(2);
    expect(inParts([], cols)).toBe(`${BOM}trx_id,ref,from_address\r\n`);
  });

  it('never starts a row’s line with {" (an export tells a stored line from a stored JSON row by it)', () => {
    const line = csvLineWriter(['ref', 'trx_id']);
    expect(line({ ref: '{"a":1}', trx_id: 't' })).toBe('"{""a"":1}",t\r\n');
    expect(line({ ref: '{', trx_id: 't' })).toBe('{,t\r\n');
  });

  it('keeps only the chosen columns, in the chosen order', () => {
    const csv = recordsToCsv([{ trx_id: 'a', ref: 'r', from_address: 'f', extra: 'no' }], ['from_address', 'trx_id']);
    expect(csv).toBe(`${BOM}from_address,trx_id\r\nf,a\r\n`);
  });
});

/**
 * csv-stringify with the options this writer had until 2026-11-28. Files are put together from lines
 * that different versions may have written (a rolling upgrade: lib/exports/file-writer.ts), so the
 * bytes must not have changed with the library.
 */
function csvStringifyAsBefore(records: Record<string, unknown>[], columns: CdrFieldKey[], forExcel: boolean): string {
  const quotedIf = (re: RegExp, prefix: (v: string) => string) => (v: string) =>
    re.test(v) ? { value: prefix(v), quoted: true } : null;
  const excelText = quotedIf(/^(0\d*|\d{12,})$/, (v) => `="${v}"`);
  const formula = quotedIf(/^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/, (v) => `'${v}`);
  const rows = records.map((r) =>
    Object.fromEntries(
      columns.map((k) => [
        k,
        r[k] === null || r[k] === undefined ? '' : typeof r[k] === 'number' ? r[k] : String(r[k]),
      ]),
    ),
  );
  return stringify(rows, {
    bom: true,
    header: true,
    columns: columns.map((key) => ({ key, header: key })),
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    cast: {
      string: (v: string) => (forExcel ? excelText(v) : null) ?? formula(v) ?? v,
      number: (v: number) => String(v),
    },
  });
}

describe('the bytes, against csv-stringify as this writer used it before', () => {
  it('are the same for 2,000 records of awkward values, with and without the Excel option', () => {
    const pieces = [
      '',
      'a',
      ' ',
      ',',
      '"',
      '""',
      '\r',
      '\n',
      '\r\n',
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\uFF1D',
      '\uFF0D',
      '0',
      '00',
      '7',
      '123456789012',
      'お知らせ',
      '📦',
      "'",
      '{"',
      ';',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = () =>
      Array.from({ length: Math.floor(next() * 4) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    const columns: CdrFieldKey[] = ['trx_id', 'ref', 'to_address', 'how_many_message_parts', 'message_body', 'price'];
    const records = Array.from({ length: 2_000 }, (_, i) => ({
      trx_id: `t${i}`,
      ref: text(),
      to_address: next() < 0.2 ? null : text(),
      how_many_message_parts: next() < 0.2 ? null : Math.floor(next() * 7) - 2,
      message_body: text(),
      price: next() < 0.5 ? undefined : text(),
    }));
    for (const forExcel of [false, true]) {
      expect(recordsToCsv(records, columns, forExcel)).toBe(csvStringifyAsBefore(records, columns, forExcel));
      expect(inParts(records, columns, forExcel)).toBe(csvStringifyAsBefore(records, columns, forExcel));
    }
  });
});

describe('parseColumns', () => {
  it('defaults to every field', () => {
    expect(parseColumns(null)).toEqual({ columns: [...ALL_COLUMNS] });
    expect(parseColumns(' ')).toEqual({ columns: [...ALL_COLUMNS] });
  });
  it('keeps the order given, once each', () => {
    expect(parseColumns('to_address, trx_id,to_address')).toEqual({ columns: ['to_address', 'trx_id'] });
  });
  it('names unknown columns', () => {
    const parsed = parseColumns('trx_id,nope,zip');
    expect('error' in parsed && translate('en', parsed.error)).toMatch(/^Unknown columns: nope, zip\./);
    expect('error' in parsed && translate('ja', parsed.error)).toMatch(/^不明な項目です:nope, zip。/);
  });
});

/** A strict RFC 4180 reader (CRLF between records; quotes doubled inside quoted fields). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i += 1;
      } else {
        cell += ch;
        i += 1;
      }
    } else if (ch === '"' && cell === '') {
      quoted = true;
      i += 1;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
      i += 1;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else if (ch === '\r' || ch === '\n' || ch === '"') {
      throw new Error(`unquoted ${JSON.stringify(ch)} at ${i}`);
    } else {
      cell += ch;
      i += 1;
    }
  }
  if (cell !== '' || row.length > 0) throw new Error('the last record has no CRLF');
  return rows;
}

describe('a round trip through a strict RFC 4180 reader', () => {
  it('gives back every awkward value (formula starters with their apostrophe)', () => {
    const awkward = [
      '',
      'plain',
      'a,b',
      'say "hi"',
      'x\ny',
      'x\r\ny',
      'x\ry',
      '\u65e5\u672c\u8a9e\u3001\u300c\u5f15\u7528\u300d',
      '\ud83d\udce6\ud83d\udc4d\ud83c\udffd',
      '=1+2',
      '+81',
      '-',
      '@x',
      '\tx',
      '\rx',
      '\nx',
      ' lead',
      'trail ',
      ',',
      '"',
      '""',
    ];
    const csv = recordsToCsv(
      awkward.map((ref, i) => ({ trx_id: `t${i}`, ref, from_address: 'x' })),
      cols,
    );
    const [header, ...rows] = readCsv(csv.slice(BOM.length));
    expect(header).toEqual(cols);
    expect(rows.map((r) => r[1])).toEqual(awkward.map((v) => (/^[=+\-@\t\r\n]/.test(v) ? `'${v}` : v)));
  });
});
