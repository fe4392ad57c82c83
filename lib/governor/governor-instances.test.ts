/**
 * The governor's promises across instances, one test body for both backends:
 *  - on SQLite, the memory backend: one instance (a data folder serves one process), so "the
 *    instances" are that one governor named several times — the promises must hold there too;
 *  - on PostgreSQL, the shared backend: two or three Governor objects, each on its own connection
 *    pool to one database, exactly as separate server processes would have them.
 * The upstream is a function that notes how many calls run at once (all instances live in this
 * process, so one counter sees them all). Real time, real database: each wait is short.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import { Governor, type CallRequest } from './governor';
import { CallNotSentError, QuotaExceededError } from './quota-errors';
import { memoryBackend } from './memory-backend';
import type { PolicyLimits } from './decision';
import type { DurableStore } from '../root/open-store';
import { postgresGovernorBackend } from './postgres-backend';

const root = path.resolve(__dirname, '../..');

const ROOMY = { perMinute: 1000, perHour: 1000, perDay: 1000 };

function limitsOf(account = ROOMY): PolicyLimits {
  return { account, deployment: null, backgroundReserve: 3, syncShare: 0.6, holdbackShare: 0.2, tokensPerMinute: 1000 };
}

/** The upstream as every instance sees it: how many calls run at once, and in which order they went. */
function upstream() {
  const seen = { running: 0, maxRunning: 0, order: [] as string[] };
  const call =
    (label: string, until: Promise<unknown> | number = 20) =>
    async () => {
      seen.running += 1;
      seen.maxRunning = Math.max(seen.maxRunning, seen.running);
      seen.order.push(label);
      try {
        await (typeof until === 'number' ? new Promise((r) => setTimeout(r, until)) : until);
      } finally {
        seen.running -= 1;
      }
      return label;
    };
  return { seen, call };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const ask = (
  account: string,
  cls: CallRequest['cls'] = 'interactive',
  extra: Partial<CallRequest> = {},
): CallRequest => ({ account, cls, kind: 'query', ...extra });

forEachBackend((open, dialect) => {
  const shared = dialect === 'postgres';
  const governors: Governor[] = [];
  const closers: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];
  let stores: DurableStore[] = [];

  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(governors.splice(0).map((g) => g.close()));
    await Promise.all(closers.splice(0).map((close) => close()));
    stores = [];
  });

  /**
   * `n` instances of the governor on this backend. On SQLite there is one instance, whatever `n`:
   * a second process cannot open the folder.
   */
  async function instances(
    n: number,
    limits = limitsOf(),
    maxWaitMs = 10_000,
    now: () => number = Date.now,
    maxInFlight = 1,
  ): Promise<Governor[]> {
    const make = (store: DurableStore) => {
      const backend = shared
        ? postgresGovernorBackend(store.db, store.pool!, { maxInFlight, now })
        : memoryBackend(store.ledger, maxInFlight);
      closers.push(() => backend.close());
      const governor = new Governor({ backend, limits, maxInFlight, maxWaitMs, now });
      governors.push(governor);
      return governor;
    };
    if (!shared) {
      const store = await open();
      stores = [store];
      const one = make(store);
      return Array.from({ length: n }, () => one);
    }
    stores = await Promise.all(Array.from({ length: n }, () => open()));
    return stores.map(make);
  }

  /** Until every account named has a request waiting where every instance can see it. */
  async function waitingSeen(gs: Governor[], accounts: string[]): Promise<void> {
    await vi.waitFor(
      async () => {
        if (shared) {
          const rows = await stores[0]!.db.selectFrom('governor_waiters').select('account').execute();
          for (const a of accounts) expect(rows.map((r) => r.account)).toContain(a);
        } else {
          for (const a of accounts)
            expect(
              (await gs[0]!.snapshot(a)).queued.interactive + (await gs[0]!.snapshot(a)).queued.background,
            ).toBeGreaterThan(0);
        }
      },
      { timeout: 5_000, interval: 20 },
    );
  }

  const callsOf = async (account: string) =>
    (await stores[0]!.db.selectFrom('upstream_calls').select('id').where('account', '=', account).execute()).length;

  it('lets one call in flight at a time across every instance', async () => {
    const gs = await instances(3);
    const u = upstream();
    const runs = gs.flatMap((g, i) =>
      ['a', 'b', 'c', 'd'].map((acc) => g.run(ask(`${acc}${i}`), u.call(`${acc}${i}`, 15))),
    );
    const results = await Promise.all(runs);
    expect(results).toHaveLength(12);
    expect(u.seen.order).toHaveLength(12);
    expect(u.seen.maxRunning).toBe(1);
  });

  it('keeps one call in flight per account however many the deployment allows, across every instance', async () => {
    const gs = await instances(2, limitsOf(), 10_000, Date.now, 2);
    const perAccount = { a: 0, maxA: 0, total: 0, maxTotal: 0 };
    const call = (account: string) => async () => {
      perAccount.total += 1;
      perAccount.maxTotal = Math.max(perAccount.maxTotal, perAccount.total);
      if (account === 'a') perAccount.maxA = Math.max(perAccount.maxA, ++perAccount.a);
      await new Promise((r) => setTimeout(r, 60));
      if (account === 'a') perAccount.a -= 1;
      perAccount.total -= 1;
      return account;
    };
    await Promise.all([
      gs[0]!.run(ask('a'), call('a')),
      gs[1]!.run(ask('a'), call('a')),
      gs[0]!.run(ask('b'), call('b')),
      gs[1]!.run(ask('a'), call('a')),
    ]);
    expect(perAccount.maxA).toBe(1);
    // Another account's call goes beside it: the deployment's second slot is used.
    expect(perAccount.maxTotal).toBe(2);
  });

  it('gives the last call of a window to exactly one instance', async () => {
    const gs = await instances(3, limitsOf({ perMinute: 3, perHour: 100, perDay: 100 }), 1_000);
    const u = upstream();
    await gs[0]!.run(ask('a'), u.call('first'));
    await gs[1]!.run(ask('a'), u.call('second'));
    // Six people of the account ask at once, two on each instance: one call is left this minute.
    const race = await Promise.allSettled(
      gs.flatMap((g, i) => [g.run(ask('a'), u.call(`last-${i}-1`, 100)), g.run(ask('a'), u.call(`last-${i}-2`, 100))]),
    );
    expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = race.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(refused).toHaveLength(5);
    for (const err of refused) expect(err).toBeInstanceOf(QuotaExceededError);
    expect(u.seen.order).toHaveLength(3);
    expect(await callsOf('a')).toBe(3);
    // Every instance counts the same calls.
    for (const g of gs)
      expect((await g.snapshot('a')).windows.find((w) => w.name === 'minute')).toMatchObject({ used: 3, remaining: 0 });
  });

  it('counts a turn given back unsent on no instance', async () => {
    const gs = await instances(2, limitsOf({ perMinute: 3, perHour: 100, perDay: 100 }));
    const u = upstream();
    await gs[0]!.run(ask('a'), u.call('sent'));
    await expect(
      gs[1]!.run(ask('a'), async () => {
        throw new CallNotSentError('the token ran out while the call waited');
      }),
    ).rejects.toBeInstanceOf(CallNotSentError);
    expect(await callsOf('a')).toBe(1);
    for (const g of gs)
      expect((await g.snapshot('a')).windows.find((w) => w.name === 'minute')).toMatchObject({ used: 1, remaining: 2 });
  });

  it('counts a call from when its answer came, so a slow call cannot let the next one in early upstream', async () => {
    // The upstream counts a call when it arrives, somewhere between our sending and its answer:
    // only the answer's time is sure to be no earlier than that.
    let t = Date.UTC(2026, 10, 20, 9, 0, 0);
    const start = t;
    const gs = await instances(2, limitsOf({ perMinute: 1, perHour: 100, perDay: 100 }), 0, () => t);
    await gs[0]!.run(ask('a'), async () => {
      t += 5_000; // a slow answer
      return 'slow';
    });
    t = start + 61_000; // a minute after it was sent, not yet a minute after it answered
    for (const g of gs) {
      const err = (await g.run(ask('a'), async () => 'early').catch((e: unknown) => e)) as QuotaExceededError;
      expect(err).toBeInstanceOf(QuotaExceededError);
      expect(err.limitedBy).toBe('minute');
      expect(err.nextCallAt).toBe(start + 65_000);
    }
    t = start + 65_000;
    expect(await gs[1]!.run(ask('a', 'interactive', { maxWaitMs: 1_000 }), async () => 'on time')).toBe('on time');
  });

  it('holds every instance back from an account the upstream answered 429 on one of them', async () => {
    const gs = await instances(3, limitsOf(), 0);
    const until = Date.now() + 30_000;
    await gs[0]!.blockUntil('a', until);
    for (const g of gs.slice(1)) {
      const err = (await g.run(ask('a'), async () => 'sent').catch((e: unknown) => e)) as QuotaExceededError;
      expect(err).toBeInstanceOf(QuotaExceededError);
      expect(err.limitedBy).toBe('upstream');
      expect(err.nextCallAt).toBeGreaterThanOrEqual(until);
      expect((await g.snapshot('a')).blockedUntil).toBe(new Date(until).toISOString());
    }
    // Other accounts are not held.
    expect(await gs[2]!.run(ask('b'), async () => 'b')).toBe('b');
    expect(await callsOf('a')).toBe(0);
  });

  it('serves people before background work, whichever instance they wait on', async () => {
    const gs = await instances(3);
    const u = upstream();
    const held = gate();
    const holder = gs[0]!.run(ask('h'), u.call('h', held.opened));
    await vi.waitFor(() => expect(u.seen.order).toEqual(['h']));
    const background = gs[1]!.run(ask('z', 'export'), u.call('export'));
    await waitingSeen(gs, ['z']);
    const person = gs[2]!.run(ask('p'), u.call('person'));
    await waitingSeen(gs, ['z', 'p']);
    held.open();
    await Promise.all([holder, background, person]);
    expect(u.seen.order).toEqual(['h', 'person', 'export']);
  });

  it('serves the account served least recently first, whichever instance it waits on', async () => {
    const gs = await instances(3);
    const u = upstream();
    const held = gate();
    const holder = gs[0]!.run(ask('h'), u.call('h', held.opened));
    await vi.waitFor(() => expect(u.seen.order).toEqual(['h']));
    // Account a bursts three requests on one instance, then b asks once on another.
    const burst = [1, 2, 3].map((i) => gs[1]!.run(ask('a'), u.call(`a${i}`)));
    await waitingSeen(gs, ['a']);
    const b = gs[2]!.run(ask('b'), u.call('b'));
    await waitingSeen(gs, ['a', 'b']);
    held.open();
    await Promise.all([holder, b, ...burst]);
    // a asked first; once a has been served, b (never served) goes before a's second request.
    expect(u.seen.order).toEqual(['h', 'a1', 'b', 'a2', 'a3']);
  });

  // A connection of the database can end at any time (a restart, a failover, an administrator).
  if (shared)
    it('listens again when the database ends its listening connection, and takes no harm when it ends one already given back', async () => {
      await instances(2);
      // Watched from a connection of its own: a pool hands a connection given back to its next query.
      const watcher = new pg.Client({ connectionString: poolUrl(stores[0]!) });
      await watcher.connect();
      closers.push(() => watcher.end());
      const lastRan = async (statement: string) =>
        (
          await watcher.query<{ pid: number }>(
            'select pid from pg_stat_activity where query like $1 and pid <> pg_backend_pid()',
            [`${statement} %`],
          )
        ).rows.map((r) => r.pid);
      const end = (pids: number[]) =>
        watcher.query('select pg_terminate_backend(pid) from pg_stat_activity where pid = any($1)', [pids]);
      await vi.waitFor(async () => expect(await lastRan('LISTEN')).toHaveLength(2), { timeout: 5_000, interval: 50 });
      const first = await lastRan('LISTEN');

      await end(first);
      await vi.waitFor(
        async () => {
          const now = await lastRan('LISTEN');
          expect(now).toHaveLength(2);
          expect(now.filter((pid) => first.includes(pid))).toEqual([]);
        },
        { timeout: 5_000, interval: 100 },
      );

      // Closed, each instance gives its connection back to its pool, where the database may end it.
      // Had the instance kept its handlers on it, that would give it back twice: pg-pool throws, and
      // nothing catches it (vitest reports it as an error of this file).
      await Promise.all(closers.splice(0, 2).map((close) => close()));
      const given = await lastRan('UNLISTEN');
      expect(given).toHaveLength(2);
      await end(given);
      await new Promise((r) => setTimeout(r, 300));
      expect(await lastRan('UNLISTEN')).toEqual([]);
    });

  // Only where several processes can share the governor: a SQLite folder serves one process.
  if (shared)
    it('frees the slot at once when the instance holding it dies (kill -9)', async () => {
      const [g] = await instances(1);
      const child = spawn(
        process.execPath,
        [
          '--conditions=react-server',
          '--import',
          'tsx',
          path.join(root, 'tests/support/governor-holder.ts'),
          poolUrl(stores[0]!),
          'dead',
        ],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      children.push(child);
      const line = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the holder ended (${code}) before it held the slot`)));
      });
      expect(JSON.parse(line)).toEqual({ holding: true });

      const u = upstream();
      const waiting = g!.run(ask('alive'), u.call('alive'));
      // While the other process holds the slot, nothing goes here.
      await new Promise((r) => setTimeout(r, 700));
      expect(u.seen.order).toEqual([]);

      const killedAt = Date.now();
      child.kill('SIGKILL');
      await waiting;
      const after = Date.now() - killedAt;
      // The server drops a dead connection's locks at once: the next call goes within a poll or two,
      // not after a timeout (this instance's own wait bound is 10 s).
      expect(after).toBeLessThan(2_000);
      expect(u.seen.order).toEqual(['alive']);
    });
});

/** The connection string a pool of the store was opened with (the holder process opens its own). */
function poolUrl(store: DurableStore): string {
  const options = (store.pool as unknown as { options: { connectionString: string } }).options;
  return options.connectionString;
}
