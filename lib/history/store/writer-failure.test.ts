import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../../db/unavailable';
import { errorOf, failureOf } from './writer-failure';

describe("a history writer's failure across threads", () => {
  it('keeps the code of a store that cannot be reached, so the answer is a 503, not a 500', () => {
    const shuttingDown = Object.assign(new Error('the database system is shutting down'), { code: '57P03' });
    const wrapped = new Error('insert failed', { cause: shuttingDown });
    const crossed = errorOf(structuredClone(failureOf(wrapped)));
    expect(crossed.message).toBe('insert failed');
    expect(isStoreUnavailable(crossed)).toBe(true);
  });

  it('keeps the message of any other failure, which stays an unknown error', () => {
    const crossed = errorOf(structuredClone(failureOf(new TypeError('x is not a function'))));
    expect(crossed.message).toBe('x is not a function');
    expect(isStoreUnavailable(crossed)).toBe(false);
  });
});
