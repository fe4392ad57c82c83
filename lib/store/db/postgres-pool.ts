import 'server-only';
/**
 * The PostgreSQL connection pool. Every integer the store keeps is epoch milliseconds or a count,
 * stored as bigint (int8), which `pg` hands back as a string by default; here int8 and numeric come
 * back as JS numbers, and a value a number cannot hold exactly fails the query rather than being
 * rounded silently.
 */
import pg from 'pg';
import { log } from '../../log';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function int8ToNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} does not fit a JS number`);
  return n;
}

/** numeric arrives from sum(bigint) and the like; whole values must be exact, fractions may round. */
function numericToNumber(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || (Number.isInteger(n) && !Number.isSafeInteger(n))) throw new RangeError(`numeric value ${text} does not fit a JS number`);
  return n;
}

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && oid === INT8_OID) return int8ToNumber;
    if (format !== 'binary' && oid === NUMERIC_OID) return numericToNumber;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PostgresPoolOptions {
  connectionString: string;
  /** Shown in pg_stat_activity, so a DBA can tell the dashboard's connections apart. */
  applicationName?: string;
  max?: number;
}

export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    application_name: options.applicationName ?? 'sms-history-dashboard',
    max: options.max ?? 10,
    types,
  });
  // An idle connection that breaks (the server restarted) emits 'error' on the pool; unheard, that
  // event would end the process. The pool drops the connection and opens a new one when needed.
  pool.on('error', (err) => log.warn('store.postgres_idle_connection_error', { error: err.message }));
  return pool;
}
