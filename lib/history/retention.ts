/**
 * The first day a scope's local history keeps: its start day (the person's choice) or
 * HISTORY_MAX_DAYS back from today, whichever is later. Records before it are deleted every day
 * (HistoryService.enforceRetention), and a complete result that starts before it is not copied in
 * the first place (ResultRecorder): it would be deleted at the next pass. The days a start day may
 * be are worked out here too, from the server's clock, and sent to the browser (HistoryState
 * `sinceBounds`): a browser's clock and zone play no part.
 */
import { addDays, dayOf } from './days';

/** The days the start day may be: from HISTORY_MAX_DAYS back to today (UTC days, the server's today). */
export function sinceBounds(now: number, maxDays: number): { min: string; max: string } {
  return { min: firstKeptDay(null, now, maxDays), max: dayOf(now) };
}

export function firstKeptDay(sinceDay: string | null, now: number, maxDays: number): string {
  const oldest = addDays(dayOf(now), -maxDays);
  return sinceDay !== null && sinceDay > oldest ? sinceDay : oldest;
}
