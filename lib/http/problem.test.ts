import { describe, expect, it } from 'vitest';
import { toProblem } from './problem';

describe('what a client is told of an error', () => {
  it('says 503 with Retry-After when the database cannot be reached, not a bare 500', () => {
    const { problem, headers } = toProblem(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(problem).toMatchObject({ type: '/problems/store-unavailable', status: 503, title: 'The dashboard cannot reach its database right now' });
    expect(problem.detail).toContain('try again in a moment');
    expect(headers['Retry-After']).toBe('15');
  });

  it('says 500 for a fault of ours, and nothing of its text', () => {
    const { problem, headers } = toProblem(new TypeError('secret detail of a bug'));
    expect(problem).toMatchObject({ status: 500, title: 'Something went wrong on our side' });
    expect(JSON.stringify(problem)).not.toContain('secret detail');
    expect(headers).toEqual({});
  });
});
