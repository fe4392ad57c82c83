import 'server-only';
/**
 * What a page or a lookup answers, written in one transaction with the task's progress and the
 * job's counters (./job-store.ts commitStep): the rows its records answer (./matches.ts), the
 * window's size learnt from its first page — split when deeper than the upstream's 1000 pages,
 * or given up for a filtered query per value (or a lookup per trx_id) when that turns out cheaper
 * than the pages left (./plan-upstream.ts cheaperToAskEach).
 */
import type { Cdr, ResultPage } from '../cdr/schema';
import { MAX_PAGE } from '../query/query';
import { pagesFor, reachableRecords, splitForDepth } from '../query/ranges';
import type { UpstreamBase } from '../query/wire';
import { formatWallClock } from '../time/zones';
import type { ReconcileNote } from './api';
import type { ReconcileJobStore, RowUpdate } from './job-store';
import type { ReconcileJobRecord, StoredMatch, StoredTask } from './job-row';
import { matchOf, valueOf, withMatches } from './matches';
import { cheaperToAskEach } from './plan-upstream';
import { windowQuery } from './window-sizes';

export interface AnswerDeps {
  store: ReconcileJobStore;
  /** Pages of the task after `pagesDone` that cost a call (those the page cache holds fresh do not). */
  pagesToRead(job: ReconcileJobRecord, task: StoredTask): Promise<number>;
  now(): number;
}

/** The upstream query a window or filtered task reads (its key is the page cache's). */
export function taskQuery(job: Pick<ReconcileJobRecord, 'enterpriseId' | 'pageSize'>, task: StoredTask): UpstreamBase {
  return windowQuery(
    task,
    job,
    job.pageSize,
    task.kind === 'filter' ? { param: task.param!, value: task.value! } : undefined,
  );
}

function note(
  job: ReconcileJobRecord,
  task: StoredTask,
  code: ReconcileNote['code'],
  figures?: Record<string, number>,
) {
  job.notes.push({
    code,
    dateFrom: formatWallClock(new Date(task.from), job.tz),
    dateTo: formatWallClock(new Date(task.to), job.tz),
    ...(figures ? { figures } : {}),
  });
}

function newTask(
  job: ReconcileJobRecord,
  fields: Pick<StoredTask, 'kind' | 'param' | 'value' | 'from' | 'to'>,
): StoredTask {
  const task: StoredTask = {
    ...fields,
    id: job.nextTaskId,
    state: 'pending',
    totalFound: null,
    pagesDone: 0,
    pagesTotal: null,
  };
  job.nextTaskId += 1;
  return task;
}

/** The pending rows `records` answer, and what each has found now. */
async function answeredRows(
  store: ReconcileJobStore,
  job: ReconcileJobRecord,
  records: readonly StoredMatch[],
): Promise<RowUpdate[]> {
  const byValue = new Map<string, StoredMatch[]>();
  for (const r of records) {
    const value = valueOf(job.kind, r as unknown as Record<string, unknown>);
    if (value !== '') byValue.set(value, [...(byValue.get(value) ?? []), r]);
  }
  const updates: RowUpdate[] = [];
  for (const row of await store.pendingRowsWith(job.id, [...byValue.keys()])) {
    const matches = withMatches(job.kind, row, byValue.get(row.value!) ?? []);
    if (matches) updates.push({ row: row.row, matches, outcome: job.kind === 'trx_id' ? 'matched' : 'pending' });
  }
  return updates;
}

/**
 * After a window's first page told its size: the tasks that replace the rest of it, when asking
 * each value alone costs less than the pages left (none otherwise). `answered`: rows this page
 * answered (not asked about again).
 */
async function cheaperWay(
  deps: AnswerDeps,
  job: ReconcileJobRecord,
  task: StoredTask,
  answered: readonly RowUpdate[],
): Promise<StoredTask[] | null> {
  const { store } = deps;
  const pagesLeft = await deps.pagesToRead(job, task);
  if (pagesLeft <= 0) return null;
  // A trx_id this page found is answered; a reference or a number may have more records on later pages.
  const doneValues = new Set(answered.filter((u) => u.outcome === 'matched').map((u) => u.matches[0]!.trx_id));
  const values = (await store.pendingValuesIn(job.id, task.from, task.to)).filter((v) => !doneValues.has(v.value));
  if (!cheaperToAskEach(pagesLeft, values.length)) return null;
  if (job.kind === 'trx_id') {
    const queued = new Set(
      (await store.tasks(job.id)).filter((t) => t.kind === 'lookup' && t.state === 'pending').map((t) => t.value),
    );
    return values
      .filter((v) => !queued.has(v.value))
      .map((v) => newTask(job, { kind: 'lookup', param: null, value: v.value, from: v.from, to: v.to }));
  }
  const param = job.kind;
  return values.map((v) =>
    newTask(job, {
      kind: 'filter',
      param,
      value: v.value,
      from: Math.max(task.from, Math.floor(v.from / 1000) * 1000),
      to: Math.min(task.to, Math.ceil(v.to / 1000) * 1000),
    }),
  );
}

/** Learns the task's size from a page; for a window deeper than the upstream reaches, the narrower windows that replace it. */
function learnSize(job: ReconcileJobRecord, task: StoredTask, total: number): StoredTask[] {
  if (task.totalFound !== null && total !== task.totalFound)
    note(job, task, 'count-changed', { from: task.totalFound, to: total });
  const first = task.totalFound === null;
  task.totalFound = total;
  task.pagesTotal = pagesFor(total, job.pageSize, MAX_PAGE);
  const reach = reachableRecords(job.pageSize);
  if (!first || total <= reach || task.kind !== 'window') {
    if (first && total > reach) note(job, task, 'window-too-deep', { records: total, reach });
    return [];
  }
  const parts = splitForDepth(task, total, reach);
  if (!parts || parts.length < 2) {
    note(job, task, 'window-too-deep', { records: total, reach });
    return [];
  }
  task.state = 'replaced';
  note(job, task, 'window-split', { records: total, windows: parts.length });
  return parts.map((p) => newTask(job, { kind: 'window', param: null, value: null, from: p.from, to: p.to }));
}

export async function keepPage(
  deps: AnswerDeps,
  job: ReconcileJobRecord,
  stale: StoredTask,
  page: number,
  body: ResultPage,
  how: { source: 'cache' | 'upstream'; calls: number; keptAsSent?: boolean },
): Promise<void> {
  const task = { ...stale };
  const records = body._embedded.cdrs.map((c) => matchOf(c as unknown as Record<string, unknown>));
  const added = learnSize(job, task, body._embedded.total_found);
  const rows = await answeredRows(deps.store, job, records);
  task.pagesDone = page;
  if (how.keptAsSent) note(job, task, 'page-kept-as-sent', { page });
  if (task.state === 'pending') {
    const ended = task.pagesDone >= (task.pagesTotal ?? 0);
    if (!ended && records.length === 0) note(job, task, 'empty-page', { page, pages: task.pagesTotal ?? 0 });
    if (ended || records.length === 0) task.state = 'done';
  }
  if (task.kind === 'window' && page === 1 && task.state === 'pending') {
    const cheaper = await cheaperWay(deps, job, task, rows);
    if (cheaper) {
      task.state = 'replaced';
      note(job, task, 'strategy-changed', { pagesLeft: await deps.pagesToRead(job, task), calls: cheaper.length });
      added.push(...cheaper);
    }
  }
  Object.assign(job, {
    state: 'running',
    startedAt: job.startedAt ?? deps.now(),
    callsSpent: job.callsSpent + how.calls,
    pagesCached: job.pagesCached + (how.source === 'cache' ? 1 : 0),
    failures: 0,
    rereads: 0,
    waitingUntil: null,
    waitingFor: undefined,
    message: null,
    updatedAt: deps.now(),
  } satisfies Partial<ReconcileJobRecord>);
  await deps.store.commitStep(job, { rows, tasks: [task, ...added] });
}

/** A lookup's answer: its record matches every row of the trx_id; none (404) means not found. */
export async function keepLookup(
  deps: AnswerDeps,
  job: ReconcileJobRecord,
  task: StoredTask,
  cdr: Cdr | null,
  calls: number,
): Promise<{ next: 'continue' }> {
  const rows = await deps.store.pendingRowsWith(job.id, [task.value!]);
  const match = cdr ? matchOf(cdr as unknown as Record<string, unknown>) : null;
  const updates: RowUpdate[] = rows.map((r) =>
    match ? { row: r.row, matches: [match], outcome: 'matched' } : { row: r.row, matches: [], outcome: 'not_found' },
  );
  Object.assign(job, {
    state: 'running',
    startedAt: job.startedAt ?? deps.now(),
    callsSpent: job.callsSpent + calls,
    failures: 0,
    waitingUntil: null,
    waitingFor: undefined,
    message: null,
    updatedAt: deps.now(),
  } satisfies Partial<ReconcileJobRecord>);
  await deps.store.commitStep(job, { rows: updates, tasks: [{ ...task, state: 'done' }] });
  return { next: 'continue' };
}
