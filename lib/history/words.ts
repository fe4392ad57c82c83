/**
 * The local history said for people: the copy's state, a day of the calendar, the calls left for
 * searches, what is still to pay and when it will be done. Pure, so the page and its tests agree.
 */
import type { HistoryDay, HistoryState } from './api';
import type { QuotaSnapshot } from '../governor';
import type { Zone } from '../time/zones';
import { formatCount, formatInstant } from '../i18n/format';
import { msg, type Message } from '../i18n/message';
import { tightestWindow, WINDOW_WORDS } from '../governor';

export const HISTORY_STATE_WORDS: Record<HistoryState['state'], string> = {
  off: 'Off',
  syncing: 'Copying',
  waiting: 'Waiting',
  complete: 'Complete',
  paused: 'Paused',
};

/** The state's word. */
export function historyStateWord(state: Pick<HistoryState, 'state'>): string {
  return HISTORY_STATE_WORDS[state.state];
}

/** What the state means right now, after its word (the server's `message` says why it waits or stopped). */
export function historyStateDetail(state: Pick<HistoryState, 'state' | 'message' | 'days'>): string {
  switch (state.state) {
    case 'off':
      return 'Nothing is being copied. Choose a start day and press Start.';
    case 'syncing':
      return 'Settled days are being copied, newest first, with calls nobody is using.';
    case 'waiting':
      return state.message ?? 'No call can go right now; the copy goes on by itself when one can.';
    case 'complete':
      return state.message ?? 'Every settled day from the start day is copied.';
    case 'paused':
      if (state.message) return state.message;
      if (state.days.some((d) => d.state === 'complete'))
        return 'Nothing is being copied; the days already copied still answer searches for free.';
      return 'Nothing is being copied; Start goes on from where the copy stopped.';
  }
}

export const DAY_STATE_WORDS: Record<HistoryDay['state'], string> = {
  complete: 'complete',
  syncing: 'copying',
  waiting: 'waiting for a call',
  unsettled: 'not settled yet',
  pending: 'not copied yet',
};

export function recordsText(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'record' : 'records'}`;
}

/**
 * `22,100 records: 21,775 of the copied days, 325 of complete search results` — the records kept
 * also hold every record of a search result read whole (lib/history/result-recorder.ts), which may
 * lie outside the copied days. Only the records beyond the days' own counts are said to be those
 * (a day being copied counts what it read before all of it is stored: no split then).
 */
export function recordsKeptText(state: Pick<HistoryState, 'records' | 'days'>): string {
  const ofDays = state.days.reduce((sum, d) => sum + d.records, 0);
  const ofResults = state.records - ofDays;
  if (ofResults <= 0) return recordsText(state.records);
  return `${recordsText(state.records)}: ${formatCount(ofDays)} of the copied days, ${formatCount(ofResults)} of complete search results`;
}

/** `2026-11-03: complete, 33,120 records` — a calendar day for a screen reader (and a tooltip). */
export function dayLabel(day: HistoryDay): string {
  const records = day.state === 'complete' || day.records > 0 ? `, ${recordsText(day.records)}` : '';
  return `${day.day}: ${DAY_STATE_WORDS[day.state]}${records}`;
}

/** `People still have 7 calls this hour.` — the account's tightest window, which searches may use in full. */
export function peopleCallsText(quota: QuotaSnapshot): string | null {
  const tight = tightestWindow(quota);
  if (!tight) return null;
  const calls = tight.remaining === 1 ? '1 call' : `${formatCount(tight.remaining)} calls`;
  const whose = tight.shared ? ' (shared by every account of this dashboard)' : '';
  return `People still have ${calls} ${WINDOW_WORDS[tight.name]}${whose}.`;
}

/** Why the copy never leaves people short. */
export function reserveText(quota: QuotaSnapshot): string | null {
  if (quota.reserve <= 0) return null;
  return `The copy never takes the last ${quota.reserve === 1 ? 'call' : `${quota.reserve} calls`} of each hour and day.`;
}

export function callsLeftText(state: Pick<HistoryState, 'state' | 'callsLeft'>): string {
  if (state.state === 'complete' || state.callsLeft === 0) return 'None';
  if (state.callsLeft === null) return 'Not known yet: a day’s first page tells its size';
  return `About ${formatCount(state.callsLeft)}`;
}

/** When the copy should be complete, in the page's zone. */
export function completeAtText(state: Pick<HistoryState, 'state' | 'completeAt'>, zone: Zone): string {
  if (state.state === 'complete') return 'Already complete';
  if (state.state === 'off' || state.state === 'paused') return 'Not while the copy is stopped';
  if (!state.completeAt) return 'Not known yet';
  const at = new Date(state.completeAt);
  return Number.isNaN(at.getTime()) ? 'Not known yet' : `${formatInstant(at, zone)} ${zone}`;
}

/**
 * `1,000 records a call (the most the Report API serves)` — the page size the sync reads with and
 * why: found from the upstream's answer, fallen back after a refusal, pinned, or not asked yet.
 */
export function pageSizeText(state: Pick<HistoryState, 'pageSize'>): Message {
  const { size, source, refused } = state.pageSize;
  if (source === 'fallback' && refused)
    return msg('history.pageSize.refused', { size, asked: refused.asked, status: String(refused.status) });
  return msg(`history.pageSize.${source}`, { size });
}

/** `About 60,000 messages a day` — what the sync keeps up with at the account's limits. */
export function keepsUpWithText(state: Pick<HistoryState, 'keepsUpWith'>): Message {
  if (state.keepsUpWith <= 0) return msg('history.keepsUpWith.none');
  return msg('history.keepsUpWith.messages', { count: state.keepsUpWith });
}
