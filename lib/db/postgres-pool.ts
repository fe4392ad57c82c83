import 'server-only';
/**
 * The PostgreSQL connection pool. Every integer the store keeps is epoch milliseconds or a count,
 * stored as bigint (int8), which `pg` hands back as a string by default; here int8 and numeric come
 * back as JS numbers, and a value a number cannot hold exactly fails the query rather than being
 * rounded silently.
 */
import pg from 'pg';
import { log } from '../log';

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
  if (!Number.isFinite(n) || (Number.isInteger(n) && !Number.isSafeInteger(n)))
    throw new RangeError(`numeric value ${text} does not fit a JS number`);
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

/**
 * How soon a connection that went silent is given up, both ways. The governor's slot is an
 * advisory lock held by a connection that sends nothing while the call runs: an instance whose
 * host dies without closing it (power lost, a network split) would hold the slot until the
 * operating system's keepalive (two hours by default) told the server. With these the server
 * drops that connection, and the slot with it, within about a minute. A postgres:// URL's own
 * `options` parameter, when it has one, wins.
 */
const KEEPALIVE = { idleSeconds: 30, intervalSeconds: 10, count: 3 };
/** A connection asked for while every one is busy fails after this long rather than waiting for ever. */
const CONNECT_TIMEOUT_MS = 15_000;

export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    application_name: options.applicationName ?? 'sms-history-dashboard',
    max: options.max ?? 10,
    types,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE.idleSeconds * 1000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    options: `-c tcp_keepalives_idle=${KEEPALIVE.idleSeconds} -c tcp_keepalives_interval=${KEEPALIVE.intervalSeconds} -c tcp_keepalives_count=${KEEPALIVE.count}`,
  });
  // An idle connection that breaks (the server restarted) emits 'error' on the pool; unheard, that
  // event would end the process. The pool drops the connection and opens a new one when needed.
  pool.on('error', (err) => log.warn('store.postgres_idle_connection_error', { error: err.message }));
  // So does one that breaks while taken from the pool between two queries (the governor's slot, a
  // transaction): its next query fails instead, and whoever holds it releases it broken.
  pool.on('connect', (client) =>
    client.on('error', (err) => log.warn('store.postgres_connection_error', { error: err.message })),
  );
  return pool;
}
