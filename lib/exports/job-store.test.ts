import { describe, expect, it } from 'vitest';
import { createJobRecord } from './job-record';
import { forEachBackend } from '@/tests/support/backends';
import { scopeOf } from '../history/scope';
import type { ExportJobRecord } from './job-row';
import { ExportJobCancelledError, type ExportJobStore } from './job-store';

const T0 = Date.UTC(2026, 0, 1);
/** Whose a job is: its API key and enterprise (the export service's owner). */
const owner = (apiKey: string, enterpriseId: string | null = null) => scopeOf({ apiKey, enterpriseId }).key;
const ownerOf = (j: ExportJobRecord) => owner(j.account, j.enterpriseId);
const put = (store: ExportJobStore, j: ExportJobRecord) => store.insertJob(j, ownerOf(j));

function job(id: string, account = 'demo', createdAt = T0): ExportJobRecord {
  return createJobRecord({
    id,
    account: { apiKey: account, sid: `sid-${account}`, enterpriseId: null },
    frozen: {
      query: {
        from: new Date(T0),
        to: new Date(T0 + 86_400_000),
        tz: 'UTC',
        sortOrder: 'asc',
        sort: 'date_received',
        filters: {},
      },
      requestedTo: null,
    },
    columns: ['trx_id', 'ref'],
    pageSize: 100,
    now: createdAt,
  });
}

/** When the platform received a record of this test: the same for the same trx_id, seconds apart by its first letter. */
const receivedAt = (trxId: string) => T0 + trxId.charCodeAt(0) * 1000;
const row = (
  trxId: string,
  body = JSON.stringify({ trx_id: trxId }),
  receivedMs: number | null = receivedAt(trxId),
) => ({ trxId, receivedMs, body });
const rows = (...ids: string[]) => ids.map((trxId) => row(trxId));
const idsOf = (batch: { body: string }[]) => batch.map((r) => (JSON.parse(r.body) as { trx_id: string }).trx_id);

describe('the export job store', () => {
  forEachBackend((open, dialect) => {
    it('gives a job back as it was saved, and only to its account', async () => {
      const { exportJobs } = await open();
      const a1 = job('a1', 'demo');
      await exportJobs.insertJob(a1, ownerOf(a1));
      await put(exportJobs, job('f1', 'fuji'));
      expect(await exportJobs.getJob('a1')).toEqual(a1);
      expect((await exportJobs.getJobFor('a1', owner('demo')))?.id).toBe('a1');
      expect(await exportJobs.getJobFor('a1', owner('fuji'))).toBeNull();
      expect(await exportJobs.getJob('nope')).toBeNull();
      expect((await exportJobs.listJobs(owner('fuji'), 10)).map((j) => j.id)).toEqual(['f1']);
      a1.state = 'running';
      a1.callsSpent = 3;
      await exportJobs.saveJob(a1);
      expect(await exportJobs.getJob('a1')).toEqual(a1);
    });

    it('keeps a cancelled job cancelled: a step that read it before writes neither the job nor its page', async () => {
      const { exportJobs } = await open();
      const read = job('c1', 'demo');
      await exportJobs.insertJob(read, ownerOf(read));
      // The step has the job; meanwhile a person cancels it.
      const cancelled = { ...read, state: 'cancelled' as const, message: 'Cancelled.' };
      await exportJobs.saveJob(cancelled);
      read.state = 'running';
      await exportJobs.saveJob(read);
      expect((await exportJobs.getJob('c1'))?.state).toBe('cancelled');
      await expect(
        exportJobs.commitPage(read, read.windows[0]!.id, rows('t1', 't2'), () => undefined),
      ).rejects.toBeInstanceOf(ExportJobCancelledError);
      expect(await exportJobs.countRows('c1')).toBe(0);
      expect((await exportJobs.getJob('c1'))?.state).toBe('cancelled');
    });

    it('lists an account’s jobs newest first, up to the limit', async () => {
      const { exportJobs } = await open();
      for (const [id, at] of [
        ['j1', T0],
        ['j2', T0 + 2000],
        ['j3', T0 + 1000],
      ] as const)
        await put(exportJobs, job(id, 'demo', at));
      expect((await exportJobs.listJobs(owner('demo'), 2)).map((j) => j.id)).toEqual(['j2', 'j3']);
    });

    it('lists active jobs oldest first', async () => {
      const { exportJobs } = await open();
      await put(exportJobs, job('new', 'demo', T0 + 1000));
      await put(exportJobs, job('old', 'demo', T0));
      const done = job('done', 'demo', T0 - 1000);
      done.state = 'done';
      await exportJobs.insertJob(done, ownerOf(done));
      const waiting = job('waiting', 'fuji', T0 + 500);
      waiting.state = 'waiting';
      await exportJobs.insertJob(waiting, ownerOf(waiting));
      expect((await exportJobs.activeJobs()).map((j) => j.id)).toEqual(['old', 'waiting', 'new']);
    });

    it('writes a page and the job in one transaction, de-duplicating by trx_id', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      const [w1] = j.windows;
      const first = await exportJobs.commitPage(j, w1!.id, rows('a', 'b', 'c'), () => {
        j.recordsFetched += 3;
      });
      expect(first).toEqual({ inserted: 3, sameWindow: 0, otherWindow: 0, claimed: 0 });
      // The same window sends b again (a shifted page); another window sends c (a shared boundary).
      const again = await exportJobs.commitPage(j, w1!.id, rows('b', 'd'), () => undefined);
      expect(again).toEqual({ inserted: 1, sameWindow: 1, otherWindow: 0, claimed: 0 });
      const other = await exportJobs.commitPage(j, 99, rows('c', 'e'), () => undefined);
      expect(other).toEqual({ inserted: 1, sameWindow: 0, otherWindow: 1, claimed: 0 });
      expect(await exportJobs.countRows('j')).toBe(5);
      expect((await exportJobs.getJob('j'))?.recordsFetched).toBe(3);
      expect(idsOf(await exportJobs.rowBatch('j', 0, 10))).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('finds a record sent again among the rows received at its time, however many rows came between', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      // Records a… then z…, a second apart by their first letter; the page of z… comes first (a
      // window read newest first), then a page that shifted back by one record.
      const late = Array.from({ length: 300 }, (_, i) => `z${i}`);
      await exportJobs.commitPage(j, 1, rows(...late, 'm1', 'a1'), () => undefined);
      expect(await exportJobs.commitPage(j, 1, rows('a1', 'a2'), () => undefined)).toEqual({
        inserted: 1,
        sameWindow: 1,
        otherWindow: 0,
        claimed: 0,
      });
      expect(await exportJobs.commitPage(j, 2, rows('m1', 'z7', 'b1'), () => undefined)).toEqual({
        inserted: 1,
        sameWindow: 0,
        otherWindow: 2,
        claimed: 0,
      });
      expect(await exportJobs.countRows('j')).toBe(304);
    });

    it('de-duplicates records whose received time cannot be read, against every page', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      await exportJobs.commitPage(j, 1, [row('x', undefined, null), ...rows('a')], () => undefined);
      expect(await exportJobs.commitPage(j, 1, [...rows('q'), row('x', undefined, null)], () => undefined)).toEqual({
        inserted: 1,
        sameWindow: 1,
        otherWindow: 0,
        claimed: 0,
      });
      expect(
        await exportJobs.commitPage(j, 1, [row('y', undefined, null), row('y', undefined, null)], () => undefined),
      ).toEqual({ inserted: 1, sameWindow: 1, otherWindow: 0, claimed: 0 });
      expect(idsOf(await exportJobs.rowBatch('j', 0, 10))).toEqual(['x', 'a', 'q', 'y']);
    });

    it('counts a record a page carries twice as that window’s duplicate, stored once', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      const result = await exportJobs.commitPage(j, 1, rows('a', 'b', 'a'), () => undefined);
      expect(result).toEqual({ inserted: 2, sameWindow: 1, otherWindow: 0, claimed: 0 });
      expect(idsOf(await exportJobs.rowBatch('j', 0, 10))).toEqual(['a', 'b']);
    });

    it('hands the records of a split window to the narrower window that reads them again', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      const parent = j.windows[0]!;
      await exportJobs.commitPage(j, parent.id, [row('a', '{"trx_id":"a","v":1}'), ...rows('b')], () => {
        parent.state = 'split';
      });
      const claimed = await exportJobs.commitPage(
        j,
        7,
        [row('a', '{"trx_id":"a","v":2}'), ...rows('b', 'c')],
        () => undefined,
      );
      expect(claimed).toEqual({ inserted: 1, sameWindow: 0, otherWindow: 0, claimed: 2 });
      // Their place in the file is where they were first read; the newer copy is kept.
      const batch = await exportJobs.rowBatch('j', 0, 10);
      expect(idsOf(batch)).toEqual(['a', 'b', 'c']);
      expect(JSON.parse(batch[0]!.body)).toEqual({ trx_id: 'a', v: 2 });
      // Now the narrower window's: read again by it, a duplicate of its own.
      expect(await exportJobs.commitPage(j, 7, rows('a'), () => undefined)).toEqual({
        inserted: 0,
        sameWindow: 1,
        otherWindow: 0,
        claimed: 0,
      });
    });

    it('keeps the later copy of a record that a split window’s page carries twice', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      // The window is split before its first page is written (its count is learnt from that page).
      j.windows[0]!.state = 'split';
      const result = await exportJobs.commitPage(
        j,
        j.windows[0]!.id,
        [row('a', '{"trx_id":"a","v":1}'), ...rows('b'), row('a', '{"trx_id":"a","v":2}')],
        () => undefined,
      );
      expect(result).toEqual({ inserted: 2, sameWindow: 0, otherWindow: 0, claimed: 1 });
      const batch = await exportJobs.rowBatch('j', 0, 10);
      expect(idsOf(batch)).toEqual(['a', 'b']);
      expect(JSON.parse(batch[0]!.body)).toEqual({ trx_id: 'a', v: 2 });
    });

    it('rolls a page back whole when writing the job fails', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      await expect(
        exportJobs.commitPage(j, 1, rows('a', 'b'), () => {
          throw new Error('disk full');
        }),
      ).rejects.toThrow('disk full');
      await expect(
        exportJobs.commitPage(j, 1, rows('c'), async () => {
          await Promise.resolve();
          throw new Error('later');
        }),
      ).rejects.toThrow('later');
      expect(await exportJobs.countRows('j')).toBe(0);
      // And the next page is written as if nothing had happened.
      expect(await exportJobs.commitPage(j, 1, rows('a', 'b'), () => undefined)).toMatchObject({ inserted: 2 });
    });

    it('pages through rows by id, a batch at a time, in arrival order', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      await exportJobs.insertJob(j, ownerOf(j));
      const ids = Array.from({ length: 1200 }, (_, i) => `r${String(i).padStart(4, '0')}`).reverse();
      await exportJobs.commitPage(j, 1, rows(...ids.slice(0, 700)), () => undefined);
      await exportJobs.commitPage(j, 1, rows(...ids.slice(700)), () => undefined);
      const read: string[] = [];
      let after = 0;
      for (;;) {
        const batch = await exportJobs.rowBatch('j', after, 250);
        if (batch.length === 0) break;
        expect(typeof batch[0]!.id).toBe('number');
        read.push(...idsOf(batch));
        after = batch.at(-1)!.id;
      }
      expect(read).toEqual(ids);
      expect(await exportJobs.countRows('j')).toBe(1200);
    });

    it('finds expired jobs, deletes rows alone, and deletes a job with its rows', async () => {
      const { exportJobs } = await open();
      const j = job('j');
      j.state = 'done';
      j.expiresAt = T0 + 1000;
      await exportJobs.insertJob(j, ownerOf(j));
      await exportJobs.insertJob(job('keep'), ownerOf(job('keep')));
      await exportJobs.commitPage(j, 1, rows('a'), () => undefined);
      expect(await exportJobs.expiredJobs(T0)).toEqual([]);
      expect(await exportJobs.expiredJobs(T0 + 1000)).toEqual(['j']);
      await exportJobs.deleteRows('j');
      expect(await exportJobs.countRows('j')).toBe(0);
      expect(await exportJobs.getJob('j')).not.toBeNull();
      await exportJobs.commitPage(j, 1, rows('a'), () => undefined);
      await exportJobs.deleteJob('j');
      expect(await exportJobs.getJob('j')).toBeNull();
      expect(await exportJobs.countRows('j')).toBe(0);
      expect(await exportJobs.getJob('keep')).not.toBeNull();
    });

    it("deletes a large job's rows in several statements, and no other job's", async () => {
      const { exportJobs } = await open();
      const big = job('big');
      const other = job('other');
      await exportJobs.insertJob(big, ownerOf(big));
      await exportJobs.insertJob(other, ownerOf(other));
      const ids = Array.from({ length: 4500 }, (_, i) => `b${i}`);
      for (let i = 0; i < ids.length; i += 500)
        await exportJobs.commitPage(big, 1, rows(...ids.slice(i, i + 500)), () => undefined);
      await exportJobs.commitPage(other, 1, rows('o1', 'o2'), () => undefined);
      await exportJobs.deleteRows('big');
      expect(await exportJobs.countRows('big')).toBe(0);
      expect(await exportJobs.countRows('other')).toBe(2);
    });

    if (dialect === 'postgres') {
      it('shows another instance nothing of a page until its transaction commits', async () => {
        const writer = await open();
        const reader = await open();
        const j = job('j');
        await writer.exportJobs.insertJob(j, ownerOf(j));
        let seenInside = -1;
        await writer.exportJobs.commitPage(j, 1, rows('a', 'b'), async () => {
          seenInside = await reader.exportJobs.countRows('j');
          j.recordsFetched = 2;
        });
        expect(seenInside).toBe(0);
        expect(await reader.exportJobs.countRows('j')).toBe(2);
        expect((await reader.exportJobs.getJob('j'))?.recordsFetched).toBe(2);
      });
    }
  });
});
