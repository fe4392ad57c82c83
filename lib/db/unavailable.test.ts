import { describe, expect, it } from 'vitest';
import { kernelProblem } from '../http/problem';
import { isStoreFull, isStoreUnavailable } from './unavailable';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('an error that means the store cannot be reached for now', () => {
  it('is a refused or lost connection, a PostgreSQL shutdown or restart, or SQLite locked past its wait', () => {
    expect(isStoreUnavailable(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isStoreUnavailable(coded('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isStoreUnavailable(coded('the database system is starting up', '57P03'))).toBe(true);
    expect(isStoreUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStoreUnavailable(coded('database is locked', 'SQLITE_BUSY'))).toBe(true);
    // Node 20 tries each address of a name and reports them all together.
    expect(isStoreUnavailable(new AggregateError([coded('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''))).toBe(
      true,
    );
    expect(isStoreUnavailable(new Error('query failed', { cause: coded('read ECONNRESET', 'ECONNRESET') }))).toBe(true);
  });

  it('is not a fault of ours: a broken statement, a constraint, a type error', () => {
    expect(isStoreUnavailable(coded('syntax error at or near "selec"', '42601'))).toBe(false);
    expect(isStoreUnavailable(coded('UNIQUE constraint failed: export_jobs.id', 'SQLITE_CONSTRAINT_PRIMARYKEY'))).toBe(
      false,
    );
    expect(isStoreUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isStoreUnavailable('a string')).toBe(false);
  });
});

describe('a full disk', () => {
  it('is told from the drivers’ own errors: SQLite, PostgreSQL, the OS', () => {
    const sqliteFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const pgFull = Object.assign(new Error('could not extend file "base/1/2": No space left on device'), {
      code: '53100',
    });
    const wrapped = new Error('write failed', { cause: Object.assign(new Error('nospace'), { code: 'ENOSPC' }) });
    for (const err of [sqliteFull, pgFull, wrapped]) {
      expect(isStoreFull(err)).toBe(true);
      expect(isStoreUnavailable(err)).toBe(false);
      expect(kernelProblem(err).problem).toMatchObject({ status: 507, type: '/problems/store-full' });
    }
    expect(isStoreFull(new Error('duplicate key value'))).toBe(false);
  });
});
