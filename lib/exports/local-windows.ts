import 'server-only';
/**
 * An export reads from the local history (lib/history) whatever it holds completely: no call, at
 * local speed. Before a window's first page it is planned as a search is (lib/search's planner,
 * the one owner of what is read locally and what upstream):
 *  - held whole: the window is read locally;
 *  - held in part: it is replaced by narrower windows, local and upstream, in the export's order
 *    (the way a window too deep for the upstream is replaced), so each part is read its own way;
 *  - a query only the local history can answer (free text, its own filters, another order) is
 *    read as one local window over every held part of the range, so the file keeps the query's
 *    order; the parts not held are named in the job's warnings.
 * Windows already started keep their source: a page bought upstream is never read twice.
 */
import { msg, type Message } from '../i18n/message';
import type { Cdr } from '../cdr/schema';
import { localSearchOf } from '../history/server';
import { scopeOf } from '../history';
import { selectionOf } from '../query/stored';
import { inSortOrder, type TimeRange } from '../query/ranges';
import type { LocalSearch } from '../history/server';
import type { HistoryStore } from '../history/server';
import { onlyLocalCanAnswer, type Plan, type Planner, type PlannedQuery } from '../search/server';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { formatWallClock } from '../time/zones';
import { newWindow, windowLabel } from './job-record';

export interface LocalReadDeps {
  planner: Pick<Planner, 'plan'>;
  history: Pick<HistoryStore, 'count' | 'page'>;
}

/** Records read from the local history per step (one transaction of the job's store each). */
export const LOCAL_BATCH = 1_000;

type JobView = Pick<ExportJobRecord, 'account' | 'enterpriseId' | 'query' | 'pageSize'>;

/** The export's query as the planner reads it (the stored query read by the codec). */
function plannedQuery(job: Pick<ExportJobRecord, 'query'>): PlannedQuery {
  return selectionOf(job.query);
}

/** Whether the export asks for what only the local history can do. */
export function isLocalOnly(job: Pick<ExportJobRecord, 'query'>): boolean {
  return onlyLocalCanAnswer(plannedQuery(job));
}

function scopeKey(job: JobView): string {
  return scopeOf({ apiKey: job.account, enterpriseId: job.enterpriseId }).key;
}

/** The plan of the export's query over `range` (lib/search's planner: the same rule as a search). */
export function planFor(deps: LocalReadDeps, job: JobView, range: TimeRange): Promise<Plan> {
  return deps.planner.plan({ apiKey: job.account, enterpriseId: job.enterpriseId }, plannedQuery(job), range);
}

/** The search that reads a local window (its held ranges, the export's filters and order). */
export function searchOfWindow(job: JobView, ranges: readonly TimeRange[]): LocalSearch {
  return localSearchOf(scopeKey(job), selectionOf(job.query), ranges);
}

/**
 * The plan a window is read by. A query only the local history can answer is planned over the
 * export's whole range: it is read as one local window, so the file keeps the query's order.
 */
function windowPlan(deps: LocalReadDeps, job: JobView, w: TimeRange): Promise<Plan> {
  return planFor(deps, job, isLocalOnly(job) ? { from: job.query.from, to: job.query.to } : w);
}

export type Route = 'local' | 'upstream' | 'replaced';

/**
 * Decides how pending window `w` (no page read yet) is read. May mark it local, or replace windows
 * of the job; the caller saves the job when the answer is not 'upstream'.
 */
export async function routeWindow(
  deps: LocalReadDeps,
  job: ExportJobRecord,
  w: StoredWindow,
): Promise<Route | 'empty'> {
  if (w.local) return 'local';
  if (w.pagesDone > 0 || w.totalFound !== null) return 'upstream';
  const plan = await windowPlan(deps, job, w);
  if (plan.kind === 'local-only') {
    if (plan.ranges.length === 0) return 'empty';
    for (const x of job.windows) if (x.state === 'pending') x.state = 'split';
    job.windows.push({ ...newWindow(job, { from: job.query.from, to: job.query.to }), local: { ranges: plan.ranges } });
    if (plan.gaps.length > 0) job.warnings.push(uncoveredWarning(plan.gaps, job));
    return 'replaced';
  }
  if (plan.kind === 'upstream') return 'upstream';
  if (plan.kind === 'local' && plan.pieces.length === 1) {
    w.local = { ranges: [{ from: w.from, to: w.to }] };
    return 'local';
  }
  w.state = 'split';
  const children = inSortOrder(plan.pieces, job.query.sortOrder).map((p) => ({
    ...newWindow(job, p),
    ...(p.kind === 'local' ? { local: { ranges: [{ from: p.from, to: p.to }] } } : {}),
  }));
  job.windows.splice(job.windows.indexOf(w) + 1, 0, ...children);
  return 'replaced';
}

/**
 * Routes every window of a new job before it is stored, as its steps would (routeWindow): what the
 * local history holds is marked local now, so the schedule shown when the job is created counts no
 * call for it (the dry run's estimate does the same). The steps route again what is still pending;
 * days completed meanwhile are then read locally too.
 */
export async function routeNewJob(deps: LocalReadDeps, job: ExportJobRecord): Promise<void> {
  for (let i = 0; i < job.windows.length; i++) {
    const w = job.windows[i]!;
    if (w.state !== 'pending') continue;
    // Nothing held for a local-only job: its first step says so (and fails it).
    if ((await routeWindow(deps, job, w)) === 'empty') return;
  }
}

/** The next batch of a local window (learning its size first); the caller commits it as a page. */
export async function readLocalBatch(deps: LocalReadDeps, job: ExportJobRecord, w: StoredWindow): Promise<Cdr[]> {
  const search = searchOfWindow(job, w.local?.ranges ?? []);
  if (w.totalFound === null) {
    w.totalFound = await deps.history.count(search);
    w.pagesTotal = Math.max(1, Math.ceil(w.totalFound / LOCAL_BATCH));
  }
  const bodies = await deps.history.page(search, w.received, LOCAL_BATCH);
  return bodies.map((b) => JSON.parse(b) as Cdr);
}

export function uncoveredWarning(gaps: readonly TimeRange[], job: Pick<ExportJobRecord, 'query'>): Message {
  return msg('exports.warning.uncovered', { list: gaps.map((g) => windowLabel(g, job.query.tz)).join('; ') });
}

export function nothingHeldMessage(job: Pick<ExportJobRecord, 'query'>): Message {
  const { from, to, tz } = job.query;
  return msg('exports.warning.nothingHeld', {
    from: formatWallClock(new Date(from), tz),
    to: formatWallClock(new Date(to), tz),
    tz,
  });
}
