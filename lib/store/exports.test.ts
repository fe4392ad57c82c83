import { describe, expect, it } from 'vitest';
import { createJobRecord } from '../exports/job-record';
import { openDatabase } from './db';
import { createSqliteExportStore, type ExportJobRecord } from './exports';
import { createSqliteVault } from './vault';

const T0 = Date.UTC(2026, 0, 1);

function setup() {
  const db = openDatabase(':memory:');
  const vault = createSqliteVault(db);
  const store = createSqliteExportStore(db);
  return { db, vault, store };
}

function job(id: string, account = 'demo', createdAt = T0): ExportJobRecord {
  return createJobRecord({
    id,
    account: { apiKey: account, sid: `sid-${account}`, enterpriseId: null },
    frozen: {
      query: { from: new Date(T0), to: new Date(T0 + 86_400_000), tz: 'UTC', sortOrder: 'asc', sort: 'date_received', filters: {} },
      requestedTo: null,
    },
    columns: ['trx_id', 'ref'],
    pageSize: 100,
    now: createdAt,
  });
}

const rows = (...ids: string[]) => ids.map((trxId) => ({ trxId, body: JSON.stringify({ trx_id: trxId }) }));

describe('the export store', () => {
  it('keeps jobs to their account', () => {
    const { store } = setup();
    store.insertJob(job('a1', 'demo'));
    store.insertJob(job('f1', 'fuji'));
    expect(store.getJobFor('a1', 'demo')?.id).toBe('a1');
    expect(store.getJobFor('a1', 'fuji')).toBeNull();
    expect(store.listJobs('fuji', 10).map((j) => j.id)).toEqual(['f1']);
  });

  it('lists active jobs oldest first', () => {
    const { store } = setup();
    store.insertJob(job('new', 'demo', T0 + 1000));
    store.insertJob(job('old', 'demo', T0));
    const done = job('done', 'demo', T0 - 1000);
    done.state = 'done';
    store.insertJob(done);
    expect(store.activeJobs().map((j) => j.id)).toEqual(['old', 'new']);
  });

  it('writes a page and the job in one transaction, de-duplicating by trx_id', () => {
    const { store } = setup();
    const j = job('j');
    store.insertJob(j);
    const [w1] = j.windows;
    const first = store.commitPage(j, w1!.id, rows('a', 'b', 'c'), () => {
      j.recordsFetched += 3;
    });
    expect(first).toEqual({ inserted: 3, sameWindow: 0, otherWindow: 0, claimed: 0 });
    // The same window sends b again (a shifted page); another window sends c (a shared boundary).
    const again = store.commitPage(j, w1!.id, rows('b', 'd'), () => undefined);
    expect(again).toEqual({ inserted: 1, sameWindow: 1, otherWindow: 0, claimed: 0 });
    const other = store.commitPage(j, 99, rows('c', 'e'), () => undefined);
    expect(other).toEqual({ inserted: 1, sameWindow: 0, otherWindow: 1, claimed: 0 });
    expect(store.countRows('j')).toBe(5);
    expect(store.getJob('j')?.recordsFetched).toBe(3);
    expect(store.rowBatch('j', 0, 10).map((r) => JSON.parse(r.body).trx_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('hands the records of a split window to the narrower window that reads them again', () => {
    const { store } = setup();
    const j = job('j');
    store.insertJob(j);
    const parent = j.windows[0]!;
    store.commitPage(j, parent.id, rows('a', 'b'), () => {
      parent.state = 'split';
    });
    const claimed = store.commitPage(j, 7, rows('a', 'b', 'c'), () => undefined);
    expect(claimed).toEqual({ inserted: 1, sameWindow: 0, otherWindow: 0, claimed: 2 });
    // Their place in the file is where they were first read.
    expect(store.rowBatch('j', 0, 10).map((r) => JSON.parse(r.body).trx_id)).toEqual(['a', 'b', 'c']);
  });

  it('rolls a page back whole when writing the job fails', () => {
    const { store } = setup();
    const j = job('j');
    store.insertJob(j);
    expect(() =>
      store.commitPage(j, 1, rows('a', 'b'), () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(store.countRows('j')).toBe(0);
  });

  it('pages through rows by id, a batch at a time', () => {
    const { store } = setup();
    const j = job('j');
    store.insertJob(j);
    store.commitPage(j, 1, rows(...Array.from({ length: 25 }, (_, i) => `r${i}`)), () => undefined);
    const first = store.rowBatch('j', 0, 10);
    const second = store.rowBatch('j', first.at(-1)!.id, 10);
    expect(first).toHaveLength(10);
    expect(JSON.parse(second[0]!.body).trx_id).toBe('r10');
  });

  it('finds expired jobs and deletes a job with its rows', () => {
    const { store } = setup();
    const j = job('j');
    j.state = 'done';
    j.expiresAt = T0 + 1000;
    store.insertJob(j);
    store.commitPage(j, 1, rows('a'), () => undefined);
    expect(store.expiredJobs(T0)).toEqual([]);
    expect(store.expiredJobs(T0 + 1000)).toEqual(['j']);
    store.deleteJob('j');
    expect(store.getJob('j')).toBeNull();
    expect(store.countRows('j')).toBe(0);
  });

  it('finds a live session of the API key: the job\u2019s own first, else the newest, else none', async () => {
    const { store, vault } = setup();
    const entry = (sid: string, apiKey: string, createdAt: number, expiresAt: number) => ({ sid, apiKey, enterpriseId: null, sealedSecret: 'x', createdAt, expiresAt });
    expect(store.liveSession('demo', 's1', T0, null)).toBeNull();
    await vault.put(entry('s1', 'demo', T0 - 10_000, T0 + 3600_000));
    await vault.put(entry('s2', 'demo', T0 - 5_000, T0 + 3600_000));
    await vault.put(entry('f1', 'fuji', T0, T0 + 3600_000));
    expect(store.liveSession('demo', 's1', T0, null)?.sid).toBe('s1');
    await vault.delete('s1');
    expect(store.liveSession('demo', 's1', T0, null)?.sid).toBe('s2');
    // After the upstream refused the credentials, only a later sign-in helps.
    expect(store.liveSession('demo', 's1', T0, T0 - 1_000)).toBeNull();
    expect(store.liveSession('demo', 's1', T0 + 3600_000, null)).toBeNull();
  });
});
