/**
 * A stored reconciliation as GET /api/reconciliations/<id> answers it: times as ISO instants, the
 * range in the reconciliation's zone, progress from its rows and tasks, its links.
 */
import { API_PATHS } from '../http/paths';
import { formatWallClock } from '../time/zones';
import type { Outcome, ReconcileSummary, Reconciliation } from './api';
import type { ReconcileJobRecord } from './job-row';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Letters and digits of any script, `.`, `_`, `-`: what a file name keeps of the upload's. */
function safe(part: string): string {
  return [
    ...part
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}._-]+/gu, '_')
      .replace(/^[_.]+|_+$/g, ''),
  ]
    .slice(0, 60)
    .join('');
}

/** `<upload>_reconciled.csv`, or `reconcile_<kind>_<made>_<zone>.csv` for a list without a file. */
export function reconcileFileName(job: Pick<ReconcileJobRecord, 'source' | 'kind' | 'createdAt' | 'tz'>): string {
  const base = job.source ? safe(job.source.replace(/\.[^.]*$/, '')) : '';
  if (base !== '') return `${base}_reconciled.csv`;
  const made = formatWallClock(new Date(job.createdAt), job.tz).replace(' ', 'T').replace(/:/g, '').slice(0, 15);
  return `reconcile_${job.kind}_${made}_${job.tz}.csv`;
}

export function presentJob(
  job: ReconcileJobRecord,
  summary: ReconcileSummary,
  counts: Record<Outcome | 'pending', number>,
  tasks: { done: number; total: number; callsLeft: number },
  eta: string | null,
): Reconciliation {
  const rows = Object.values(counts).reduce((s, n) => s + n, 0);
  return {
    id: job.id,
    state: job.state,
    kind: job.kind,
    tz: job.tz,
    source: job.source,
    column: job.columns[job.valueColumn] ?? 'value',
    range: job.range
      ? {
          dateFrom: formatWallClock(new Date(job.range.from), job.tz),
          dateTo: formatWallClock(new Date(job.range.to), job.tz),
        }
      : null,
    createdAt: new Date(job.createdAt).toISOString(),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    expiresAt: iso(job.expiresAt),
    plan: job.plan,
    progress: {
      answered: rows - counts.pending,
      rows,
      callsSpent: job.callsSpent,
      pagesCached: job.pagesCached,
      tasksDone: tasks.done,
      tasksTotal: tasks.total,
      callsLeft: tasks.callsLeft,
      eta,
    },
    summary,
    message: job.message,
    notes: job.notes,
    fileName: reconcileFileName(job),
    _links: {
      self: { href: API_PATHS.reconciliation(job.id) },
      rows: { href: API_PATHS.reconciliationRows(job.id) },
      file: { href: API_PATHS.reconciliationFile(job.id) },
      ...(job.state === 'planned' ? { start: { href: API_PATHS.reconciliationStart(job.id) } } : {}),
    },
  };
}
