import { describe, expect, it } from 'vitest';
import { deliveryLatencyMs } from './cdr-view';

describe('CDR facts', () => {
  it('measures delivery latency from submission to delivery, across offsets', () => {
    expect(
      deliveryLatencyMs({
        date_submitted_to_mno: '2026-11-20T09:15:02.123+0900',
        date_delivered: '2026-11-20T00:15:06.353+0000',
      }),
    ).toBe(4230);
    expect(deliveryLatencyMs({ date_submitted_to_mno: '2026-11-20T09:15:02.123+0900', date_delivered: '' })).toBeNull();
  });

  it('takes a latency longer than any validity period (24.8 days, either way) for a wrong timestamp', () => {
    const submitted = '2026-10-01T00:00:00.000+0000';
    expect(
      deliveryLatencyMs({ date_submitted_to_mno: submitted, date_delivered: '2026-10-24T00:00:00.000+0000' }),
    ).toBe(23 * 86_400_000);
    expect(
      deliveryLatencyMs({ date_submitted_to_mno: submitted, date_delivered: '2026-11-05T00:00:00.000+0000' }),
    ).toBeNull();
    expect(
      deliveryLatencyMs({ date_submitted_to_mno: submitted, date_delivered: '2026-09-01T00:00:00.000+0000' }),
    ).toBeNull();
  });
});
