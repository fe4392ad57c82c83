import { describe, expect, it } from 'vitest';
import { sampleCdr, samplePage } from '../upstream/test-fixtures';
import { CDR_FIELDS, FIELD_BY_KEY, INTEGER_FIELDS } from './fields';
import { cdrSchema, resultPageSchema } from './schema';

describe('the record schema', () => {
  it('reads as numbers exactly the fields the field list says the upstream sends as integers', () => {
    expect(INTEGER_FIELDS).toEqual(['how_many_message_parts']);
    // Sent as a number, so shown and sorted as one too.
    for (const key of INTEGER_FIELDS) expect(FIELD_BY_KEY.get(key)?.kind).toBe('integer');
    const cdr = cdrSchema.parse(sampleCdr({ trx_id: 't1', message_length: 160, how_many_message_parts: '2' }));
    // message_length is shown as a number but typed "string (numeric)" by the seed: read as its digits.
    const read: [string, number | null] = [cdr.message_length, cdr.how_many_message_parts];
    expect(read).toEqual(['160', 2]);
  });

  it('reads text that arrives as a number or a boolean, and null or absent as ""', () => {
    const cdr = cdrSchema.parse({
      ...sampleCdr({ trx_id: 't1' }),
      from_address: 8100,
      dlr_error_code: null,
      network_name: undefined,
      price: true,
    });
    expect(cdr).toMatchObject({ from_address: '8100', dlr_error_code: '', network_name: '', price: 'true' });
  });

  it("lays a record out in the list's order, then its other fields, whichever fields it lacks", () => {
    const { network_name: _dropped, ...lacking } = sampleCdr({ trx_id: 't1' });
    const cdr = cdrSchema.parse({ extra: 1, ...lacking });
    expect(Object.keys(cdr)).toEqual([
      ...CDR_FIELDS.map((f) => f.key),
      ...Object.keys(lacking).filter((k) => !CDR_FIELDS.some((f) => f.key === k)),
      'extra',
    ]);
    expect(cdr.network_name).toBe('');
  });

  it('reads message parts as an integer, "" or absent as null, and refuses one that is not a number', () => {
    expect(cdrSchema.parse(sampleCdr({ trx_id: 't1', how_many_message_parts: '2' })).how_many_message_parts).toBe(2);
    expect(cdrSchema.parse(sampleCdr({ trx_id: 't1', how_many_message_parts: '' })).how_many_message_parts).toBeNull();
    const wrong = cdrSchema.safeParse(sampleCdr({ trx_id: 't1', how_many_message_parts: 'two' }));
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({
      path: ['how_many_message_parts'],
      message: 'expected an integer, got "two"',
    });
  });

  it('refuses an object or a list where text belongs, naming the field and the record', () => {
    const page = samplePage([
      sampleCdr({ trx_id: 't1' }),
      { ...sampleCdr({ trx_id: 't2' }), from_address: { name: 'x' }, to_address: ['81'] },
    ]);
    const result = resultPageSchema.safeParse(page);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['_embedded.cdrs.1.to_address', 'expected text, got an array'],
      ['_embedded.cdrs.1.from_address', 'expected text, got object'],
    ]);
  });
});
