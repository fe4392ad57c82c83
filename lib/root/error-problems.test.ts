import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors/invalid-input';
import { QuotaExceededError } from '../governor/quota-errors';
import { toProblem } from './error-problems';

describe('what a client is told of an error', () => {
  it('says 503 with Retry-After when the database cannot be reached, not a bare 500', () => {
    const { problem, headers } = toProblem(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      'en',
    );
    expect(problem).toMatchObject({
      type: '/problems/store-unavailable',
      status: 503,
      title: 'The dashboard cannot reach its database right now',
    });
    expect(problem.detail).toContain('try again in a moment');
    expect(headers['Retry-After']).toBe('15');
  });

  it('says whose calls are used and when the next can go, and the reason alone for a screen that counts down', () => {
    const { problem, headers } = toProblem(
      new QuotaExceededError('minute', Date.now() + 45_000, 45_000, 'account', { limit: 3 }),
      'en',
    );
    expect(problem).toMatchObject({ status: 429, retryAfterSeconds: 45, limitedBy: 'minute' });
    expect(problem.detail).toBe("Your account's 3 calls this minute are used; the next call can go in 45 s.");
    expect(problem.reason).toBe("Your account's 3 calls this minute are used");
    expect(headers['Retry-After']).toBe('45');
  });

  it('says 400 naming each parameter for input a service refused, as for a query the parser refused', () => {
    const { problem } = toProblem(new InvalidInputError({ 'date-from': 'The range starts in the future.' }), 'en');
    expect(problem).toMatchObject({
      status: 400,
      type: '/problems/invalid-query',
      errors: { 'date-from': 'The range starts in the future.' },
    });
    expect(problem.detail).toContain('No upstream call was made');
  });

  it('says 500 for a fault of ours, and nothing of its text', () => {
    const { problem, headers } = toProblem(new TypeError('secret detail of a bug'), 'en');
    expect(problem).toMatchObject({ status: 500, title: 'Something went wrong on our side' });
    expect(JSON.stringify(problem)).not.toContain('secret detail');
    expect(headers).toEqual({});
  });
});
