import { describe, expect, it } from 'vitest';
import { isNumber, maskNumber, maskRecord, maskSender } from './masking';

describe('the masking rule', () => {
  it('keeps the first 2 and last 4 digits of a number, every other digit a star', () => {
    expect(maskNumber('819012345678')).toBe('81******5678');
    expect(maskNumber('+819012345678')).toBe('+81******5678');
    expect(maskNumber('1234567')).toBe('12*4567');
  });

  it('leaves a number with nothing between its kept ends as it is', () => {
    expect(maskNumber('20400')).toBe('20400');
    expect(maskNumber('123456')).toBe('123456');
  });

  it('masks a sender only when it is a number, not a brand', () => {
    expect(isNumber('815012345678')).toBe(true);
    expect(isNumber('SakuraMart')).toBe(false);
    expect(maskSender('815012345678')).toBe('81******5678');
    expect(maskSender('FujiLogi')).toBe('FujiLogi');
  });

  it('empties the message text and masks the numbers of a record, leaving the record itself untouched', () => {
    const record = {
      trx_id: 'a'.repeat(32),
      to_address: '819012345678',
      from_address: '815012345678',
      message_body: 'ご予約の確認コード 1234',
      unencrypted_message_body: 'secret text',
      client_reference: 'ORD-1',
    };
    const masked = maskRecord(record);
    expect(masked).toEqual({
      trx_id: 'a'.repeat(32),
      to_address: '81******5678',
      from_address: '81******5678',
      message_body: '',
      unencrypted_message_body: '',
      client_reference: 'ORD-1',
    });
    expect(record.to_address).toBe('819012345678');
  });
});
