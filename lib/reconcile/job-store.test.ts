import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import type { ReconcileJobRecord, StoredMatch, StoredRow, StoredTask } from './job-row';
import { ReconcileJobGoneError } from './job-store';

const T0 = Date.UTC(2026, 10, 20);
const OWNER = JSON.stringify(['demo', 'ent-sakura']);

function job(id: string, state: ReconcileJobRecord['state'] = 'planned'): ReconcileJobRecord {
  return {
    id,
    account: 'demo',
    sid: 'sid',
    enterpriseId: 'ent-sakura',
    state,
    kind: 'client-reference',
    tz: 'UTC',
    source: null,
    columns: ['client-reference'],
    valueColumn: 0,
    range: { from: T0 - 86_400_000, to: T0 },
    expected: { count: null, cost: null, currency: null },
    pageSize: 100,
    plan: {
      rows: 3,
      invalid: 1,
      local: 0,
      upstream: 2,
      calls: 1,
      callsKnown: 'exact',
      callsAtMost: 1,
      callsOneByOne: 2,
      windows: [],
      windowsNotShown: 0,
      eta: null,
      durationMs: null,
      perHour: 7,
      perDay: 97,
      reserve: 3,
      pageSize: 100,
    },
    nextTaskId: 2,
    summary: null,
    createdAt: T0,
    updatedAt: T0,
    startedAt: null,
    finishedAt: null,
    expiresAt: null,
    callsSpent: 0,
    pagesCached: 0,
    waitingUntil: null,
    message: null,
    notes: [],
    failures: 0,
    rereads: 0,
    signInNeededSince: null,
  };
}

const match = (trx: string, status = 'DELIVRD'): StoredMatch => ({
  trx_id: trx,
  date_received: '2026-11-19T10:00:00.000+0000',
  delivery_status: status,
  dlr_error_code: '000',
  dlr_reason: '',
  network_code: '44010',
  network_name: 'NTT docomo',
  date_submitted_to_mno: '',
  date_delivered: '',
  how_many_message_parts: 1,
  price: '3.30000000',
  price_currency: 'JPY',
  to_address: '819012345678',
  ref: 'ORD-1',
});

const rows: StoredRow[] = [
  {
    row: 1,
    value: 'ORD-1',
    spanFrom: 0,
    spanTo: T0,
    sentAt: null,
    cost: null,
    cells: ['ORD-1'],
    outcome: 'pending',
    problem: null,
    matches: [],
  },
  {
    row: 2,
    value: 'ORD-2',
    spanFrom: 0,
    spanTo: T0,
    sentAt: null,
    cost: null,
    cells: ['ORD-2'],
    outcome: 'pending',
    problem: null,
    matches: [],
  },
  {
    row: 3,
    value: null,
    spanFrom: null,
    spanTo: null,
    sentAt: null,
    cost: null,
    cells: ['?'],
    outcome: 'invalid',
    problem: { code: 'empty' },
    matches: [],
  },
];

const task: StoredTask = {
  id: 1,
  kind: 'window',
  param: null,
  value: null,
  from: T0 - 86_400_000,
  to: T0,
  state: 'pending',
  totalFound: null,
  pagesDone: 0,
  pagesTotal: null,
};

describe('the reconciliation store', () => {
  forEachBackend((open) => {
    it('keeps a job with its rows and tasks, finds rows by value, and writes a step whole', async () => {
      const { reconcile: store } = await open();
      await store.insertJob(job('r1'), OWNER, rows, [task]);
      expect(await store.getJobFor('r1', OWNER)).toMatchObject({ id: 'r1', state: 'planned' });
      expect(await store.getJobFor('r1', JSON.stringify(['demo', null]))).toBeNull();
      expect(await store.nextTask('r1')).toEqual(task);
      expect(await store.taskCounts('r1')).toEqual({ done: 0, total: 1, callsLeft: 1 });
      expect((await store.pendingRowsWith('r1', ['ORD-1', 'ORD-9'])).map((r) => r.row)).toEqual([1]);
      expect(await store.pendingValuesIn('r1', T0 - 1000, T0)).toEqual([
        { value: 'ORD-1', from: 0, to: T0 },
        { value: 'ORD-2', from: 0, to: T0 },
      ]);

      const running = { ...job('r1'), state: 'running' as const, callsSpent: 1 };
      await store.commitStep(running, {
        rows: [{ row: 1, matches: [match('a'), match('b', 'UNDELIV')], outcome: 'pending' }],
        tasks: [{ ...task, state: 'done', totalFound: 2, pagesDone: 1, pagesTotal: 1 }],
      });
      expect(await store.nextTask('r1')).toBeNull();
      expect(await store.taskCounts('r1')).toEqual({ done: 1, total: 1, callsLeft: 0 });
      await store.finishRows('r1');
      expect(await store.outcomeCounts('r1')).toEqual({ pending: 0, matched: 0, not_found: 1, several: 1, invalid: 1 });
      const page = await store.rowsPage('r1', { outcome: 'several' }, 0, 10);
      expect(page.total).toBe(1);
      expect(page.rows[0]!.matches.map((m) => m.trx_id)).toEqual(['a', 'b']);
      expect((await store.getJob('r1'))!.callsSpent).toBe(1);
      expect((await store.rowBatch('r1', 1, 10)).map((r) => r.row)).toEqual([2, 3]);
    });

    it('filters matched rows by their record’s status', async () => {
      const { reconcile: store } = await open();
      await store.insertJob(job('r2'), OWNER, rows.slice(0, 2), []);
      await store.commitStep(job('r2'), {
        rows: [
          { row: 1, matches: [match('a', 'UNDELIV')], outcome: 'matched' },
          { row: 2, matches: [match('b')], outcome: 'matched' },
        ],
      });
      const undelivered = await store.rowsPage('r2', { outcome: 'matched', status: 'UNDELIV' }, 0, 10);
      expect(undelivered.rows.map((r) => r.row)).toEqual([1]);
    });

    it('writes nothing of a step once the job was deleted, and lists what is active and what expired', async () => {
      const { reconcile: store } = await open();
      await store.insertJob({ ...job('r3', 'queued'), expiresAt: null }, OWNER, rows, [task]);
      await store.insertJob({ ...job('r4', 'done'), expiresAt: T0 + 10 }, OWNER, [], []);
      expect((await store.activeJobs()).map((j) => j.id)).toEqual(['r3']);
      expect(await store.expiredJobs(T0 + 10)).toEqual(['r4']);
      expect((await store.listJobs(OWNER, 10)).map((j) => j.id).sort()).toEqual(['r3', 'r4']);
      await store.deleteJob('r3');
      await expect(
        store.commitStep(job('r3'), { rows: [{ row: 1, matches: [match('a')], outcome: 'matched' }] }),
      ).rejects.toBeInstanceOf(ReconcileJobGoneError);
      expect(await store.getJob('r3')).toBeNull();
      expect(await store.rowBatch('r3', 0, 10)).toEqual([]);
      expect(await store.tasks('r3')).toEqual([]);
    });
  });
});
