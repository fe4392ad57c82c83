import 'server-only';
/**
 * The rows of an upload as they are stored, each with the span of received times that answers it:
 * its own send time's, else the range the upload gave for rows without one (a row with neither is
 * invalid, and says so). The range's end is frozen when the reconciliation is made (a range that
 * ends in the future ends now), and at most EXPORT_MAX_RANGE_DAYS long, as an export's.
 */
import { badRequest } from '../http/problem';
import { msg } from '../i18n/message';
import { EXPORT_MAX_RANGE_DAYS } from '../query/query';
import { DAY_MS } from '../time/units';
import { formatWallClock } from '../time/zones';
import type { ReconcileNote, RowProblem } from './api';
import type { StoredRow } from './job-row';
import type { ReconcileInput } from './reconcile-request';

/** Dates before this are no SMS's (and the upstream refuses them). */
const EARLIEST_MS = Date.UTC(2000, 0, 1);

export function rowsOf(
  input: ReconcileInput,
  now: number,
): { rows: StoredRow[]; range: { from: number; to: number } | null; notes: ReconcileNote[] } {
  const notes: ReconcileNote[] = [];
  let range = input.range;
  if (range) {
    if (range.from >= now || range.from < EARLIEST_MS)
      throw badRequest({ 'date-from': msg('reconcile.problems.rangeFuture') });
    if (range.to - range.from > EXPORT_MAX_RANGE_DAYS * DAY_MS)
      throw badRequest({ 'date-to': msg('reconcile.problems.rangeTooLong', { days: EXPORT_MAX_RANGE_DAYS }) });
    if (range.to > now) {
      range = { from: range.from, to: now };
      notes.push({
        code: 'range-frozen',
        dateFrom: formatWallClock(new Date(range.from), input.tz),
        dateTo: formatWallClock(new Date(now), input.tz),
      });
    }
  }
  const withoutTime = input.list.rows.filter((r) => r.value !== null && r.span === null).length;
  if (withoutTime > 0 && !range)
    throw badRequest({ 'date-from': msg('reconcile.problems.noSendTime', { rows: withoutTime }) });
  const rows = input.list.rows.map((r): StoredRow => {
    const base = { row: r.row, value: r.value, cells: r.cells, cost: r.cost, matches: [] };
    const invalid = (problem: RowProblem): StoredRow => ({
      ...base,
      value: null,
      spanFrom: null,
      spanTo: null,
      sentAt: r.span?.at ?? null,
      outcome: 'invalid',
      problem,
    });
    if (r.value === null) return invalid(r.problem!);
    const span = r.span ? { from: Math.max(r.span.from, EARLIEST_MS), to: Math.min(r.span.to, now) } : range!;
    if (r.span && (r.span.from > now || r.span.at < EARLIEST_MS)) return invalid({ code: 'time-out-of-reach' });
    return {
      ...base,
      spanFrom: span.from,
      spanTo: span.to,
      sentAt: r.span?.at ?? null,
      outcome: 'pending',
      problem: null,
    };
  });
  return { rows, range, notes };
}
