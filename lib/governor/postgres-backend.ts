import 'server-only';
/**
 * The governor's state in PostgreSQL, shared by every instance of the dashboard:
 *  - the one call in flight is a session-level advisory lock, held on a connection of its own for
 *    as long as the call lasts; when the holder's process dies its connection closes and the
 *    server releases the lock by itself — the next call goes at once, not after a timeout;
 *  - each account's single call in flight is an advisory lock too;
 *  - "check the windows and record the call" is one transaction under a transaction-level
 *    advisory lock, so two instances can never both take the last call of a window;
 *  - the upstream's holds (429) are rows every instance reads;
 *  - each instance's waiting requests are rows (governor_waiters): the slot goes to the best waiter
 *    of the whole deployment, approximately (rows are renewed every second or so);
 *  - NOTIFY tells the other instances when a slot frees or a call is recorded, so they look again
 *    at once instead of on a timer.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { callClassOf } from './classes';
import type { GovernorBackend, NewCall, SlotLease, WaitingCall } from './backend';
import type { GovernorState } from './decision';
import { STATE_SPAN_MS } from './windows';
import { log } from '../log';
import type { Database } from '../db/schema';
import { createLedger, type LedgerStore } from './ledger-store';

/** Advisory-lock namespaces (the first key of the two-int form). */
const SLOT_NS = 0x534d5301;
const ACCOUNT_NS = 0x534d5302;
const WINDOWS_NS = 0x534d5303;
const CHANNEL = 'sms_dashboard_governor';
/** How long an instance's published waiters count after their last renewal. */
const WAITER_TTL_MS = 5_000;
/** How long a read of the state is reused for snapshots (decisions re-read it under the lock). */
const STATE_TTL_MS = 250;
/** A very early instant for "never served" (the column is a number). */
const NEVER = -1;

export interface PostgresGovernorOptions {
  maxInFlight: number;
  now?: () => number;
}

/** The state as the ledger holds it (the ledger owns the rows; `ledger` may work in a transaction). */
async function readState(ledger: LedgerStore, now: number): Promise<GovernorState> {
  const [calls, blocks] = await Promise.all([ledger.callsSince(now - STATE_SPAN_MS), ledger.blocksAfter(now)]);
  return { calls, blocks };
}

export function postgresGovernorBackend(
  db: Kysely<Database>,
  pool: pg.Pool,
  opts: PostgresGovernorOptions,
): GovernorBackend {
  const now = opts.now ?? Date.now;
  const ledger = createLedger(db);
  const instance = randomUUID();
  const listeners = new Set<() => void>();
  let cached: { at: number; state: Promise<GovernorState> } | undefined;
  /** The connection LISTENing for other instances' changes, and how to give it back (once). */
  let listener: { client: pg.PoolClient; release(destroy: boolean): void } | undefined;
  let closed = false;
  let published: readonly WaitingCall[] = [];
  let publishedKey = '[]';
  let publishing: Promise<void> | undefined;
  let publishTimer: ReturnType<typeof setInterval> | undefined;

  const changed = () => {
    cached = undefined;
    for (const l of listeners) l();
  };
  const notify = () => sql`select pg_notify(${CHANNEL}, ${instance})`.execute(db).catch(() => undefined);

  // One retry pending at a time, however many ways a connection fails (an error event, then its query).
  let retrying = false;
  const listenAgainSoon = () => {
    if (closed || retrying) return;
    retrying = true;
    setTimeout(() => {
      retrying = false;
      void listen();
    }, 1000).unref?.();
  };

  const listen = async () => {
    if (closed || listener) return;
    try {
      const client = await pool.connect();
      const onNotification = (msg: pg.Notification) => {
        if (msg.payload !== instance) changed();
      };
      // A connection given back is the pool's: these handlers leave with it. Left on it, an error on
      // it later (the server ending idle connections, another user's query) would give it back a
      // second time, which pg-pool throws on, outside any promise: the process would crash.
      let given = false;
      const release = (destroy: boolean) => {
        if (given) return;
        given = true;
        client.off('notification', onNotification);
        client.off('error', onError);
        client.release(destroy);
      };
      const onError = () => {
        if (listener?.client === client) listener = undefined;
        release(true);
        listenAgainSoon();
      };
      client.on('notification', onNotification);
      client.on('error', onError);
      listener = { client, release };
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      // The connection, if one was had, is given back broken: LISTEN did not take on it.
      const failed = listener;
      listener = undefined;
      failed?.release(true);
      log.warn('governor.listen_failed', { error: err instanceof Error ? err.message : String(err) });
      listenAgainSoon();
    }
  };

  const writeWaiters = async () => {
    const t = now();
    const rows = published.map((w, seq) => ({
      instance,
      seq,
      account: w.account,
      cls: w.cls,
      rank: w.rank,
      last_served: Number.isFinite(w.lastServed) ? w.lastServed : NEVER,
      since: w.since,
      seen_at: t,
    }));
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('governor_waiters').where('instance', '=', instance).execute();
      if (rows.length > 0) await trx.insertInto('governor_waiters').values(rows).execute();
      // Rows of instances gone for good.
      await trx
        .deleteFrom('governor_waiters')
        .where('seen_at', '<', t - 10 * WAITER_TTL_MS)
        .execute();
    });
  };
  // Writes coalesce: each one writes the latest list, so one waiting behind the write under way is enough.
  let writeQueued = false;
  const publish = () => {
    if (writeQueued) return;
    writeQueued = true;
    publishing = (publishing ?? Promise.resolve())
      .then(() => {
        writeQueued = false;
        return writeWaiters();
      })
      .catch((err: unknown) =>
        log.warn('governor.publish_failed', { error: err instanceof Error ? err.message : String(err) }),
      );
  };

  void listen();

  const backend: GovernorBackend = {
    async state(t) {
      if (cached && t - cached.at < STATE_TTL_MS && t >= cached.at) return cached.state;
      const state = readState(ledger, t);
      cached = { at: t, state };
      state.catch(() => {
        if (cached?.state === state) cached = undefined;
      });
      return state;
    },

    async admit(call: NewCall, stillAllowed) {
      const id = await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${WINDOWS_NS}, 0)`.execute(trx);
        const inTransaction = createLedger(trx);
        if (!stillAllowed(await readState(inTransaction, call.at))) return null;
        return inTransaction.recordCall(call);
      });
      // Either way the state read before was stale: the next look must see the rows as they are.
      cached = undefined;
      if (id !== null) void notify();
      return id;
    },

    async finish(id, outcome, at) {
      await ledger.finishCall(id, outcome, at);
      // The call's time moved: other instances must not decide on the time it was sent.
      cached = undefined;
      void notify();
    },

    async withdraw(id) {
      await ledger.withdrawCall(id);
      // The call no longer counts: other instances may let the next one go.
      cached = undefined;
      void notify();
    },

    async block(account, until) {
      await ledger.setBlockedUntil(account, until);
      cached = undefined;
      void notify();
    },

    async tryAcquireSlot(account) {
      const client = await pool.connect();
      let accountLocked = false;
      try {
        const acc = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [
          ACCOUNT_NS,
          account,
        ]);
        accountLocked = acc.rows[0]?.ok === true;
        if (!accountLocked) {
          client.release();
          return null;
        }
        for (let slot = 1; slot <= opts.maxInFlight; slot++) {
          const r = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [SLOT_NS, slot]);
          if (r.rows[0]?.ok !== true) continue;
          let released = false;
          const lease: SlotLease = {
            async release() {
              if (released) return;
              released = true;
              try {
                await client.query('select pg_advisory_unlock($1, $2), pg_advisory_unlock($3, hashtext($4))', [
                  SLOT_NS,
                  slot,
                  ACCOUNT_NS,
                  account,
                ]);
                client.release();
              } catch (err) {
                // A connection that cannot unlock is closed: the server drops its locks with it.
                client.release(err instanceof Error ? err : true);
              }
              void notify();
            },
          };
          return lease;
        }
        await client.query('select pg_advisory_unlock($1, hashtext($2))', [ACCOUNT_NS, account]);
        client.release();
        return null;
      } catch (err) {
        client.release(err instanceof Error ? err : true);
        throw err;
      }
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    publishWaiters(waiters) {
      const next = waiters.map((w) => ({
        account: w.account,
        cls: w.cls,
        rank: w.rank,
        lastServed: w.lastServed,
        since: w.since,
      }));
      const key = JSON.stringify(next);
      // Unchanged: the timer below keeps the rows alive; no write needed.
      if (key !== publishedKey) {
        published = next;
        publishedKey = key;
        publish();
      }
      // While requests wait, keep their rows alive; stop when none do.
      if (published.length > 0 && !publishTimer) {
        publishTimer = setInterval(publish, WAITER_TTL_MS / 4);
        publishTimer.unref?.();
      } else if (published.length === 0 && publishTimer) {
        clearInterval(publishTimer);
        publishTimer = undefined;
      }
    },

    async mayGoFirst(candidate, canGo) {
      const t = now();
      const lastServed = Number.isFinite(candidate.lastServed) ? candidate.lastServed : NEVER;
      const better = await db
        .selectFrom('governor_waiters')
        .select(['account', 'cls', 'rank', 'last_served', 'since'])
        .where('instance', '!=', instance)
        .where('seen_at', '>', t - WAITER_TTL_MS)
        .where((eb) =>
          eb.or([
            eb('rank', '<', candidate.rank),
            eb.and([eb('rank', '=', candidate.rank), eb('last_served', '<', lastServed)]),
            eb.and([
              eb('rank', '=', candidate.rank),
              eb('last_served', '=', lastServed),
              eb('since', '<', candidate.since),
            ]),
          ]),
        )
        .orderBy('rank')
        .orderBy('last_served')
        .limit(20)
        .execute();
      // Only a waiter that could go now holds this one back (another account's full window does not).
      return !better.some((w) =>
        canGo({
          account: w.account,
          cls: callClassOf(w.cls),
          rank: w.rank,
          lastServed: w.last_served === NEVER ? Number.NEGATIVE_INFINITY : w.last_served,
          since: w.since,
        }),
      );
    },

    async close() {
      closed = true;
      if (publishTimer) clearInterval(publishTimer);
      await publishing;
      await db
        .deleteFrom('governor_waiters')
        .where('instance', '=', instance)
        .execute()
        .catch(() => undefined);
      if (listener) {
        const { client, release } = listener;
        listener = undefined;
        await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
        release(false);
      }
    },
  };
  return backend;
}
