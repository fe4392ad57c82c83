import { describe, expect, it } from 'vitest';
import { sampleCdr } from '../upstream/test-fixtures';
import { historyRow, RECORD_COLUMNS, receivedMs, recordColumns, searchText } from './record-columns';
import { cdrSchema } from './schema';

const cdr = (over: Record<string, unknown> = {}) => cdrSchema.parse(sampleCdr(over));

describe("a record's columns in the local history", () => {
  it('are the columns the store writes, every one named in its list', () => {
    expect(Object.keys(recordColumns(cdr())!)).toEqual([...RECORD_COLUMNS]);
  });

  it('keep the record itself beside them, and place it by its received time', () => {
    const record = cdr({
      date_received: '2026-11-01T09:30:00.250+0900',
      to_address: '819012345678',
      price: '3.30000000',
    });
    const row = historyRow(record)!;
    expect(JSON.parse(row.body)).toEqual(record);
    expect(row.received_ms).toBe(Date.UTC(2026, 10, 1, 0, 30, 0, 250));
    expect(receivedMs(record)).toBe(row.received_ms);
    expect([row.day, row.to_rev, row.price_units]).toEqual(['2026-11-01', '876543210918', 330_000_000]);
  });

  it('cannot be made for a record whose received time cannot be read', () => {
    expect(recordColumns(cdr({ date_received: 'yesterday' }))).toBeNull();
    expect(historyRow(cdr({ date_received: '' }))).toBeNull();
    expect(receivedMs(cdr({ date_received: '' }))).toBeNull();
  });

  it('search text: every searchable field once, lower-cased, one per line, without a field another one quotes whole', () => {
    const record = cdr({
      trx_id: 'ABC123',
      to_address: '819012345678',
      from_address: 'SakuraMart',
      ref: 'ORD-2026-0012345',
      message_body: 'SakuraMart: your order ORD-2026-0012345 has shipped.',
      unencrypted_message_body: '',
    });
    // The sender and the reference are in the message: whatever part of them is searched, the message has it.
    expect(recordColumns(record)!.search_text).toBe(
      'abc123\n819012345678\nsakuramart: your order ord-2026-0012345 has shipped.',
    );
    const quoteless = cdr({
      trx_id: 'ABC123',
      to_address: '819012345678',
      from_address: 'Fuji',
      ref: 'SHP-1',
      message_body: '配達します',
      unencrypted_message_body: '',
    });
    expect(recordColumns(quoteless)!.search_text).toBe('abc123\n819012345678\nfuji\nshp-1\n配達します');
  });

  it("search text holds an encrypted message's readable text, not its ciphertext", () => {
    const encrypted = cdr({
      trx_id: 'ABC123',
      to_address: '819012345678',
      from_address: 'Fuji',
      ref: '',
      msg_encrypted: 'true',
      message_body: 'q2FiY2RlZmc=',
      unencrypted_message_body: '認証コードは948910です',
    });
    expect(recordColumns(encrypted)!.search_text).toBe('abc123\n819012345678\nfuji\n認証コードは948910です');
    // A boolean true reads the same; a message not encrypted keeps its body.
    expect(recordColumns(cdr({ ...encrypted, msg_encrypted: true }))!.search_text).not.toContain('q2fiy2rlzmc=');
    expect(recordColumns(cdr({ ...encrypted, msg_encrypted: 'false' }))!.search_text).toContain('q2fiy2rlzmc=');
  });

  it('search text keeps one of two equal fields, and nothing of empty ones', () => {
    expect(searchText(['same', '', 'same', 'other'])).toBe('same\nother');
    expect(searchText(['', ''])).toBe('');
  });
});
