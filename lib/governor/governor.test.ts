import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGN_IN_ACCOUNT } from './classes';
import { Governor } from './governor';
import { CallNotSentError, QuotaExceededError } from './quota-errors';
import { memoryBackend, type CallLedger } from './memory-backend';
import type { PolicyLimits, WindowLimits } from './decision';
import { HOUR_MS as HOUR, MINUTE_MS as MINUTE } from '../time/units';
import { fakeLedger } from '../../tests/support/fake-ledger';

const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);

interface Setup {
  limits?: WindowLimits;
  deploymentLimits?: WindowLimits;
  maxWaitMs?: number;
  tokensPerMinute?: number;
}

function governor(setup: Setup = {}, ledger: CallLedger = fakeLedger()) {
  const limits: PolicyLimits = {
    account: setup.limits ?? { perMinute: 3, perHour: 10, perDay: 100 },
    deployment: setup.deploymentLimits ?? null,
    backgroundReserve: 3,
    syncShare: 0.6,
    holdbackShare: 0.2,
    tokensPerMinute: setup.tokensPerMinute ?? 10,
  };
  return new Governor({
    backend: memoryBackend(ledger, 1),
    limits,
    maxInFlight: 1,
    maxWaitMs: setup.maxWaitMs ?? 20_000,
  });
}

/** An upstream call that takes `ms` of (fake) time and notes how many ran at once. */
function upstream(ms = 100) {
  let running = 0;
  const seen = { calls: 0, maxConcurrent: 0, order: [] as string[] };
  const call = (label: string) => async () => {
    running += 1;
    seen.calls += 1;
    seen.maxConcurrent = Math.max(seen.maxConcurrent, running);
    seen.order.push(label);
    await new Promise((r) => setTimeout(r, ms));
    running -= 1;
    return label;
  };
  return { seen, call };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Governor', () => {
  it('runs one call at a time across accounts', async () => {
    const g = governor();
    const u = upstream(500);
    const all = Promise.all([
      g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call('a1')),
      g.run({ account: 'b', cls: 'interactive', kind: 'query' }, u.call('b1')),
      g.run({ account: 'c', cls: 'interactive', kind: 'query' }, u.call('c1')),
    ]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await all).toEqual(['a1', 'b1', 'c1']);
    expect(u.seen.maxConcurrent).toBe(1);
  });

  it("gives a call its answer when the ledger cannot note its end, and notes it with the answer's time once it can", async () => {
    const noted: { id: number; outcome: string; at: number }[] = [];
    let storeDown = true;
    const ledger = fakeLedger();
    const g = governor(
      {},
      {
        ...ledger,
        finishCall: async (id, outcome, at) => {
          if (storeDown) throw new Error('the store cannot be reached');
          noted.push({ id, outcome, at });
        },
      },
    );
    const u = upstream(200);
    const answer = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call('the page'));
    await vi.advanceTimersByTimeAsync(200);
    // Thrown away, the answer would be asked for (and paid for) again.
    expect(await answer).toBe('the page');
    const answeredAt = T0 + 200;
    expect(noted).toEqual([]);
    // The store is back: the next try notes the call with its answer's time, not the retry's.
    storeDown = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(noted).toEqual([{ id: 1, outcome: 'ok', at: answeredAt }]);
    // The call still counts meanwhile and after: two more fill the minute.
    for (const label of ['b', 'c']) {
      const p = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call(label));
      await vi.advanceTimersByTimeAsync(300);
      await p;
    }
    await expect(
      g.run({ account: 'a', cls: 'interactive', kind: 'query', maxWaitMs: 0 }, u.call('d')),
    ).rejects.toBeInstanceOf(QuotaExceededError);
    await g.close();
  });

  it('allows 3 calls a minute and answers the 4th with the minute window and its wait', async () => {
    const g = governor();
    const u = upstream(10);
    for (let i = 0; i < 3; i++) {
      const p = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call(`a${i}`));
      await vi.advanceTimersByTimeAsync(1000);
      await p;
    }
    const fourth = g.run({ account: 'a', cls: 'interactive', kind: 'query', maxWaitMs: 10_000 }, u.call('a3'));
    await expect(fourth).rejects.toMatchObject({ name: 'QuotaExceededError', limitedBy: 'minute' });
    const err = (await fourth.catch((e: unknown) => e)) as QuotaExceededError;
    // The first call was answered at T0 + 10 ms (it counts from its answer); it leaves the minute
    // window at T0 + 60.01 s; now is T0 + 3 s.
    expect(err.nextCallAt).toBe(T0 + 10 + MINUTE);
    expect(err.retryAfterMs).toBe(MINUTE + 10 - 3000);
    expect(u.seen.calls).toBe(3);
    const snap = await g.snapshot('a');
    expect(snap.windows.find((w) => w.name === 'minute')).toMatchObject({ used: 3, remaining: 0 });
    expect(snap.limitedBy).toBe('minute');
  });

  it('lets a person wait for a window that frees within the wait bound', async () => {
    const g = governor({ maxWaitMs: 31_000 });
    const u = upstream(10);
    for (let i = 0; i < 3; i++) {
      const p = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call(`a${i}`));
      await vi.advanceTimersByTimeAsync(10_000);
      await p;
    }
    // Now T0+30 s; the first call (answered at T0+10 ms) leaves the minute window at T0+60.01 s: a
    // 30 s wait, within the bound.
    const fourth = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call('a3'));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(u.seen.calls).toBe(3);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await fourth).toBe('a3');
  });

  it('holds the hour window: the 11th call of an hour waits for the first to leave it', async () => {
    const g = governor({ maxWaitMs: 0 });
    const u = upstream(10);
    for (let i = 0; i < 10; i++) {
      const p = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call(`a${i}`));
      await vi.advanceTimersByTimeAsync(1000);
      await p;
      vi.advanceTimersByTime(MINUTE); // keep clear of the minute window
    }
    const err = (await g
      .run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call('x'))
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect(err.limitedBy).toBe('hour');
    expect(err.nextCallAt).toBe(T0 + 10 + HOUR);
  });

  it('holds the day window across many hours', async () => {
    const g = governor({ limits: { perMinute: 3, perHour: 10, perDay: 12 }, maxWaitMs: 0 });
    const u = upstream(10);
    for (let i = 0; i < 12; i++) {
      const p = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call(`a${i}`));
      await vi.advanceTimersByTimeAsync(100);
      await p;
      vi.advanceTimersByTime(HOUR);
    }
    const err = (await g
      .run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call('x'))
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(err.limitedBy).toBe('day');
    expect(err.nextCallAt).toBe(T0 + 10 + 24 * HOUR);
  });

  it('keeps the reserve of the hour for people: background work stops short of it', async () => {
    const g = governor({ limits: { perMinute: 100, perHour: 10, perDay: 100 } });
    const u = upstream(10);
    const background = Array.from({ length: 10 }, (_, i) =>
      g.run({ account: 'a', cls: 'export', kind: 'export' }, u.call(`bg${i}`)),
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(u.seen.calls).toBe(7); // 10 an hour less a reserve of 3
    const person = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call('person'));
    await vi.advanceTimersByTimeAsync(100);
    expect(await person).toBe('person');
    expect(u.seen.calls).toBe(8);
    // The rest of the background work goes once the first calls leave the hour.
    await vi.advanceTimersByTimeAsync(HOUR);
    await Promise.all(background);
    expect(u.seen.calls).toBe(11);
  });

  it('serves people before background work, and accounts fairly', async () => {
    const g = governor({ limits: { perMinute: 100, perHour: 100, perDay: 100 } });
    const u = upstream(100);
    const done: Promise<string>[] = [];
    // Account a bursts five requests, then b and c ask once each, then a background job.
    for (let i = 0; i < 5; i++) done.push(g.run({ account: 'a', cls: 'interactive', kind: 'q' }, u.call(`a${i}`)));
    done.push(g.run({ account: 'z', cls: 'export', kind: 'export' }, u.call('bg')));
    done.push(g.run({ account: 'b', cls: 'interactive', kind: 'q' }, u.call('b0')));
    done.push(g.run({ account: 'c', cls: 'interactive', kind: 'q' }, u.call('c0')));
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all(done);
    // b and c do not wait behind a's burst; the background job goes last.
    expect(u.seen.order.slice(0, 4)).toEqual(['a0', 'b0', 'c0', 'a1']);
    expect(u.seen.order.at(-1)).toBe('bg');
  });

  it('serves the people sharing one account fairly: the person served least recently first', async () => {
    const g = governor({ limits: { perMinute: 100, perHour: 100, perDay: 100 } });
    const u = upstream(100);
    const done: Promise<string>[] = [];
    // Sora bursts four searches on the team's account; Vic and Aiko then ask once each.
    const call = (person: string, label: string) =>
      done.push(g.run({ account: 'team', cls: 'interactive', kind: 'q', person }, u.call(label)));
    for (let i = 0; i < 4; i++) call('sora', `sora${i}`);
    call('vic', 'vic0');
    call('aiko', 'aiko0');
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all(done);
    // Neither waits behind Sora's burst: after Sora's first, each of them, then Sora's others.
    expect(u.seen.order).toEqual(['sora0', 'vic0', 'aiko0', 'sora1', 'sora2', 'sora3']);
  });

  it('notes in the ledger which person a call was made for', async () => {
    const recorded: (string | undefined)[] = [];
    const ledger = fakeLedger();
    const g = governor(
      {},
      { ...ledger, recordCall: async (call) => (recorded.push(call.person), ledger.recordCall(call)) },
    );
    await g.run({ account: 'team', cls: 'interactive', kind: 'q', person: 'sora' }, async () => 1);
    await g.run({ account: 'team', cls: 'interactive', kind: 'q' }, async () => 2);
    expect(recorded).toEqual(['sora', undefined]);
  });

  it('shares one call between identical requests in flight', async () => {
    const g = governor();
    const u = upstream(300);
    const req = { account: 'a', cls: 'interactive' as const, kind: 'query', shareKey: 'page-1' };
    const all = Promise.all([g.run(req, u.call('x')), g.run(req, u.call('y')), g.run(req, u.call('z'))]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await all).toEqual(['x', 'x', 'x']);
    expect(u.seen.calls).toBe(1);
  });

  it('goes on with a shared call while anyone who shares it still waits, and gives it up once all have gone', async () => {
    const g = governor({ maxWaitMs: 120_000 });
    const u = upstream(100);
    // The minute is used up: the shared call waits for it.
    for (let i = 0; i < 3; i++) await g.run({ account: 'a', cls: 'interactive', kind: 'q' }, async () => i);
    const req = (signal: AbortSignal) => ({
      account: 'a',
      cls: 'interactive' as const,
      kind: 'query',
      shareKey: 'page-1',
      signal,
    });
    const first = new AbortController();
    const second = new AbortController();
    const a = g.run(req(first.signal), u.call('shared')).catch((e: unknown) => e);
    const b = g.run(req(second.signal), u.call('not sent'));
    await vi.advanceTimersByTimeAsync(1000);
    first.abort(new Error('the first tab was closed'));
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(await b).toBe('shared');
    expect(await a).toBe('shared');
    expect(u.seen.calls).toBe(1);

    const third = new AbortController();
    const fourth = new AbortController();
    for (let i = 0; i < 2; i++) await g.run({ account: 'a', cls: 'interactive', kind: 'q' }, async () => i);
    const c = g.run({ ...req(third.signal), shareKey: 'page-2' }, u.call('c')).catch((e: unknown) => e);
    const d = g.run({ ...req(fourth.signal), shareKey: 'page-2' }, u.call('d')).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    third.abort(new Error('gone'));
    fourth.abort(new Error('gone too'));
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(await c).toBeInstanceOf(Error);
    expect(await d).toBeInstanceOf(Error);
    expect(u.seen.calls).toBe(1);
  });

  it('counts failed calls', async () => {
    const g = governor({ maxWaitMs: 0 });
    for (let i = 0; i < 3; i++) {
      await expect(
        g.run({ account: 'a', cls: 'interactive', kind: 'query' }, async () => {
          throw new Error('upstream 503');
        }),
      ).rejects.toThrow('upstream 503');
    }
    await expect(g.run({ account: 'a', cls: 'interactive', kind: 'query' }, async () => 'x')).rejects.toBeInstanceOf(
      QuotaExceededError,
    );
  });

  it('takes a turn given back unsent out of its windows, so the next call of the minute still goes', async () => {
    const ledger = fakeLedger();
    const g = governor({ maxWaitMs: 0 }, ledger);
    const ask = { account: 'a', cls: 'interactive', kind: 'query' } as const;
    await g.run(ask, async () => 'sent');
    await expect(
      g.run(ask, async () => {
        throw new CallNotSentError('the token ran out while the call waited');
      }),
    ).rejects.toBeInstanceOf(CallNotSentError);
    expect((await g.snapshot('a')).windows.find((w) => w.name === 'minute')).toMatchObject({ used: 1, remaining: 2 });
    // Nor is it in the durable ledger: a restart counts the same.
    const restarted = governor({ maxWaitMs: 0 }, ledger);
    expect((await restarted.snapshot('a')).windows.find((w) => w.name === 'minute')).toMatchObject({
      used: 1,
      remaining: 2,
    });
    expect(await restarted.run(ask, async () => 'second')).toBe('second');
    expect(await restarted.run(ask, async () => 'third')).toBe('third');
    await expect(restarted.run(ask, async () => 'fourth')).rejects.toBeInstanceOf(QuotaExceededError);
  });

  it('does not count token requests against the query windows, but caps them a minute for the whole deployment', async () => {
    const g = governor({ maxWaitMs: 0, tokensPerMinute: 5 });
    for (let i = 0; i < 5; i++) await g.run({ account: 'a', cls: 'renewal', kind: 'token' }, async () => 't');
    const snap = await g.snapshot('a');
    expect(snap.windows.every((w) => w.used === 0)).toBe(true);
    await expect(g.run({ account: 'b', cls: 'renewal', kind: 'token' }, async () => 't')).rejects.toMatchObject({
      limitedBy: 'tokens',
      scope: 'deployment',
    });
    // A person's search is not held back by the token cap.
    expect(await g.run({ account: 'a', cls: 'interactive', kind: 'query' }, async () => 'q')).toBe('q');
  });

  it('keeps sign-ins behind signed-in people and within their part of the token cap', async () => {
    const g = governor({ tokensPerMinute: 5, limits: { perMinute: 100, perHour: 100, perDay: 100 } });
    const u = upstream(200);
    const signIns = Array.from({ length: 6 }, (_, i) =>
      g
        .run({ account: '(sign-in)', cls: 'signin', kind: 'token', maxWaitMs: 3_000 }, u.call(`s${i}`))
        .catch((e: unknown) => e),
    );
    await vi.advanceTimersByTimeAsync(10); // the first sign-in is in flight
    const person = g.run({ account: 'a', cls: 'interactive', kind: 'query' }, u.call('person'));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await person).toBe('person');
    // The person went right after the sign-in already in flight; sign-ins took 4 of 5 (a fifth stays for renewals).
    expect(u.seen.order.indexOf('person')).toBe(1);
    const refused = (await Promise.all(signIns)).filter((r) => r instanceof QuotaExceededError);
    expect(refused).toHaveLength(2);
    expect((refused[0] as QuotaExceededError).message).toMatch(/Too many sign-ins/);
  });

  it('honours an upstream 429 for that account only', async () => {
    const g = governor({ maxWaitMs: 0 });
    await g.blockUntil('a', T0 + 45_000);
    const err = (await g
      .run({ account: 'a', cls: 'interactive', kind: 'q' }, async () => 'x')
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(err.limitedBy).toBe('upstream');
    expect(err.retryAfterMs).toBe(45_000);
    expect(await g.run({ account: 'b', cls: 'interactive', kind: 'q' }, async () => 'b')).toBe('b');
  });

  it('holds the account’s token renewals after a 429 too, and every sign-in after a sign-in’s 429', async () => {
    const g = governor({ maxWaitMs: 0 });
    await g.blockUntil('a', T0 + 30_000);
    const renewal = (await g
      .run({ account: 'a', cls: 'renewal', kind: 'token' }, async () => 'x')
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect([renewal.limitedBy, renewal.retryAfterMs]).toEqual(['upstream', 30_000]);
    expect(await g.run({ account: 'b', cls: 'renewal', kind: 'token' }, async () => 'b')).toBe('b');
    await g.blockUntil(SIGN_IN_ACCOUNT, T0 + 20_000);
    const signIn = (await g
      .run({ account: SIGN_IN_ACCOUNT, cls: 'signin', kind: 'token' }, async () => 'x')
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(signIn.limitedBy).toBe('upstream');
    vi.advanceTimersByTime(20_000);
    expect(await g.run({ account: SIGN_IN_ACCOUNT, cls: 'signin', kind: 'token' }, async () => 'later')).toBe('later');
  });

  it('frees the slot when a call cannot be recorded (a store error), so the next call goes', async () => {
    const ledger = fakeLedger();
    const record = ledger.recordCall.bind(ledger);
    let broken = true;
    ledger.recordCall = async (call) => {
      if (!broken) return record(call);
      broken = false;
      throw new Error('the store is unreachable');
    };
    const g = governor({ maxWaitMs: 0 }, ledger);
    await expect(g.run({ account: 'a', cls: 'interactive', kind: 'q' }, async () => 'a')).rejects.toThrow(
      'the store is unreachable',
    );
    expect(await g.run({ account: 'b', cls: 'interactive', kind: 'q' }, async () => 'b')).toBe('b');
  });

  it('remembers the windows across a restart (durable ledger)', async () => {
    const ledger = fakeLedger();
    const first = governor({ maxWaitMs: 0 }, ledger);
    for (let i = 0; i < 3; i++) await first.run({ account: 'a', cls: 'interactive', kind: 'q' }, async () => i);
    await first.blockUntil('b', T0 + 30_000);

    vi.advanceTimersByTime(10_000);
    const restarted = governor({ maxWaitMs: 0 }, ledger);
    const err = (await restarted
      .run({ account: 'a', cls: 'interactive', kind: 'q' }, async () => 'x')
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(err.limitedBy).toBe('minute');
    expect(err.nextCallAt).toBe(T0 + MINUTE);
    const blocked = (await restarted
      .run({ account: 'b', cls: 'interactive', kind: 'q' }, async () => 'x')
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(blocked.limitedBy).toBe('upstream');
  });

  it('starts a queued call whose window frees while the queue is being looked at (a store that takes its time)', async () => {
    // Each look at the state takes 30 ms of the clock, as a busy store's would. A look that begins
    // just before the window frees finds the call not yet due and, by its end, due: it must not
    // leave the call without a wake-up (an export stood "running" with nothing sent until a search
    // of the same account nudged the queue).
    const backend = memoryBackend(fakeLedger(), 1);
    const slow = {
      ...backend,
      state: async (now: number) => {
        const state = await backend.state(now);
        vi.setSystemTime(Date.now() + 30);
        return state;
      },
    };
    const limits: PolicyLimits = {
      account: { perMinute: 3, perHour: 100, perDay: 1000 },
      deployment: null,
      backgroundReserve: 0,
      syncShare: 0.6,
      holdbackShare: 0.2,
      tokensPerMinute: 10,
    };
    const g = new Governor({ backend: slow, limits, maxInFlight: 1, maxWaitMs: 20_000 });
    const u = upstream(10);
    for (let i = 0; i < 3; i++) {
      const p = g.run({ account: 'a', cls: 'export', kind: 'query' }, u.call(`a${i}`));
      await vi.advanceTimersByTimeAsync(200);
      await p;
    }
    const fourth = g.run({ account: 'a', cls: 'export', kind: 'query' }, u.call('a3'));
    await vi.advanceTimersByTimeAsync(100);
    const due = (await g.nextCallAt('a', 'export')).at;
    // Something else makes the queue look again 10 ms before the window frees (another account's call ending, say).
    await vi.advanceTimersByTimeAsync(due - Date.now() - 10);
    await g.blockUntil('b', 0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(u.seen.order).toEqual(['a0', 'a1', 'a2', 'a3']);
    expect(await fourth).toBe('a3');
  });

  it('takes back a call whose caller went away while it was being recorded, never sending it', async () => {
    const base = fakeLedger();
    let release!: () => void;
    const recorded = new Promise<void>((resolve) => (release = resolve));
    // A ledger slow to record (a store write on a busy database).
    const slow: CallLedger = { ...base, recordCall: async (call) => recorded.then(() => base.recordCall(call)) };
    const g = governor({}, slow);
    const u = upstream(10);
    const controller = new AbortController();
    const run = g.run({ account: 'a', cls: 'interactive', kind: 'q', signal: controller.signal }, u.call('a'));
    await vi.advanceTimersByTimeAsync(1);
    controller.abort(new Error('client went away'));
    release();
    await expect(run).rejects.toThrow('client went away');
    await vi.advanceTimersByTimeAsync(100);
    expect(u.seen.order).toEqual([]);
    expect((await g.snapshot('a')).windows.every((w) => w.used === 0)).toBe(true);
    expect(await base.callsSince(0)).toEqual([]);
  });

  it('gives up on a queued request when its caller goes away', async () => {
    const g = governor();
    const u = upstream(1000);
    const first = g.run({ account: 'a', cls: 'interactive', kind: 'q' }, u.call('a'));
    const controller = new AbortController();
    const second = g.run({ account: 'b', cls: 'interactive', kind: 'q', signal: controller.signal }, u.call('b'));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('client went away'));
    await expect(second).rejects.toThrow('client went away');
    await vi.advanceTimersByTimeAsync(2000);
    await first;
    expect(u.seen.order).toEqual(['a']);
    expect((await g.snapshot('b')).windows[0]?.used).toBe(0);
  });
});

describe('Governor deployment windows (the upstream counts per IP too)', () => {
  it('holds 3 a minute across all accounts, fairly', async () => {
    const g = governor({ deploymentLimits: { perMinute: 3, perHour: 10, perDay: 100 }, maxWaitMs: 0 });
    const u = upstream(10);
    for (const account of ['a', 'b', 'c']) {
      const p = g.run({ account, cls: 'interactive', kind: 'q' }, u.call(account));
      await vi.advanceTimersByTimeAsync(100);
      await p;
    }
    // Account d has made no call, yet the deployment's minute is full.
    const err = (await g
      .run({ account: 'd', cls: 'interactive', kind: 'q' }, u.call('d'))
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect(err).toMatchObject({ limitedBy: 'minute', scope: 'deployment' });
    expect(err.message).toMatch(/This dashboard's shared calls this minute .* are used \(3 accounts used them\)/);
    const snap = await g.snapshot('d');
    // d's own minute is untouched; the shared one is what binds, and says so.
    expect(snap.windows.find((w) => w.name === 'minute')).toMatchObject({ used: 0, remaining: 3 });
    expect(snap.shared?.find((w) => w.name === 'minute')).toMatchObject({ used: 3, remaining: 0, accounts: 3 });
    expect(snap.limitScope).toBe('deployment');
  });

  it('never lets one account take the part of a shared window kept for the others', async () => {
    const g = governor({
      limits: { perMinute: 100, perHour: 100, perDay: 100 },
      deploymentLimits: { perMinute: 100, perHour: 10, perDay: 100 },
      maxWaitMs: 0,
    });
    for (let i = 0; i < 8; i++) await g.run({ account: 'demo', cls: 'interactive', kind: 'q' }, async () => i);
    const err = (await g
      .run({ account: 'demo', cls: 'interactive', kind: 'q' }, async () => 'x')
      .catch((e: unknown) => e)) as QuotaExceededError;
    expect(err.message).toMatch(/Your account has used its share of this dashboard's calls this hour/);
    // fuji has spent nothing: it is not refused because of demo's use.
    expect(await g.run({ account: 'fuji', cls: 'interactive', kind: 'q' }, async () => 'fuji')).toBe('fuji');
  });

  it('counts the deployment from the durable ledger after a restart', async () => {
    const ledger = fakeLedger();
    const first = governor({ deploymentLimits: { perMinute: 2, perHour: 10, perDay: 100 }, maxWaitMs: 0 }, ledger);
    await first.run({ account: 'a', cls: 'interactive', kind: 'q' }, async () => 1);
    await first.run({ account: 'b', cls: 'interactive', kind: 'q' }, async () => 2);
    const restarted = governor({ deploymentLimits: { perMinute: 2, perHour: 10, perDay: 100 }, maxWaitMs: 0 }, ledger);
    await expect(restarted.run({ account: 'c', cls: 'interactive', kind: 'q' }, async () => 3)).rejects.toMatchObject({
      scope: 'deployment',
    });
  });
});

describe('Governor and the caller\u2019s signal', () => {
  it('stops listening to a long-lived signal once the call has started', async () => {
    const g = governor({ limits: { perMinute: 100, perHour: 100, perDay: 100 } });
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners += 1;
      return add(...args);
    }) as typeof add;
    controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners -= 1;
      return remove(...args);
    }) as typeof remove;
    for (let i = 0; i < 5; i++)
      await g.run({ account: 'a', cls: 'export', kind: 'export', signal: controller.signal }, async () => i);
    expect(listeners).toBe(0);
  });
});
