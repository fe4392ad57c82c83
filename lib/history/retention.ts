/**
 * The first day a scope's local history keeps: its start day (the person's choice) or
 * HISTORY_MAX_DAYS back from today, whichever is later. Records before it are deleted every day
 * (HistoryService.enforceRetention), and a complete result that starts before it is not copied in
 * the first place (ResultRecorder): it would be deleted at the next pass.
 */
import { addDays, dayOf } from './days';

export function firstKeptDay(sinceDay: string | null, now: number, maxDays: number): string {
  const oldest = addDays(dayOf(now), -maxDays);
  return sinceDay !== null && sinceDay > oldest ? sinceDay : oldest;
}
