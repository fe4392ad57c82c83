/**
 * The local history said for people: the sync's state, a day of the calendar, the calls left for
 * searches, what is still to pay and when it will be done. Each answer is Words (a catalogue key and
 * its values, messages/<locale>/history.json), said in the page's language by the component that
 * shows it (useWords); pure, so the page and its tests agree. Values that need the reader's
 * language before they go into a message (a day, an instant) take the locale.
 */
import type { HistoryDay, HistoryState } from './api';
import type { QuotaSnapshot } from '../governor';
import type { Locale } from '../i18n/locales';
import type { Zone } from '../time/zones';
import { formatDay, formatInstant } from '../i18n/format';
import { msg, type Message, type Words } from '../i18n/message';
import { tightestWindow } from '../governor';

/** The state's word: Off, Syncing, Waiting, Complete, Paused. */
export function historyStateWord(state: Pick<HistoryState, 'state'>): Message {
  return msg(`history.state.${state.state}`);
}

/**
 * What the state means right now, after its word: the server's `message` (already in the reader's
 * language: app/api/history renders it) says why it waits or stopped.
 */
export function historyStateDetail(state: Pick<HistoryState, 'state' | 'message' | 'days'>): Words {
  switch (state.state) {
    case 'off':
      return msg('history.detail.off');
    case 'syncing':
      return msg('history.detail.syncing');
    case 'waiting':
      return state.message ?? msg('history.detail.waiting');
    case 'complete':
      return state.message ?? msg('history.detail.complete');
    case 'paused':
      if (state.message) return state.message;
      return state.days.some((d) => d.state === 'complete')
        ? msg('history.detail.pausedWithDays')
        : msg('history.detail.paused');
  }
}

/** A day's state in the calendar's words (lower case: it follows the day in a label). */
export function dayStateWords(state: HistoryDay['state']): Message {
  return msg(`history.day.${state}`);
}

export function recordsText(n: number): Message {
  return msg('history.records', { n });
}

/**
 * `22,100 records: 21,775 of the synced days, 325 of complete search results` — the records kept
 * also hold every record of a search result read whole (lib/history/result-recorder.ts), which may
 * lie outside the synced days. Only the records beyond the days' own counts are said to be those
 * (a day being synced counts what it read before all of it is stored: no split then).
 */
export function recordsKeptText(state: Pick<HistoryState, 'records' | 'days'>): Message {
  const ofDays = state.days.reduce((sum, d) => sum + d.records, 0);
  const ofResults = state.records - ofDays;
  if (ofResults <= 0) return recordsText(state.records);
  return msg('history.recordsKept', { records: recordsText(state.records), ofDays, ofResults });
}

/** `2026-11-03: complete, 33,120 records` (`11月3日(火):完了、33,120件`) — a calendar day for a screen reader and a tooltip. */
export function dayLabel(day: HistoryDay, locale: Locale): Message {
  const values = { day: formatDay(day.day, locale), state: dayStateWords(day.state) };
  return day.state === 'complete' || day.records > 0
    ? msg('history.dayLabelRecords', { ...values, records: recordsText(day.records) })
    : msg('history.dayLabel', values);
}

/** `People still have 7 calls this hour.` — the account's tightest window, which searches may use in full. */
export function peopleCallsText(quota: QuotaSnapshot): Message | null {
  const tight = tightestWindow(quota);
  if (!tight) return null;
  return msg(tight.shared ? 'history.peopleCallsShared' : 'history.peopleCalls', {
    n: tight.remaining,
    window: msg(`quota.window.${tight.name}`),
  });
}

/** Why the sync never leaves people short. */
export function reserveText(quota: QuotaSnapshot): Message | null {
  return quota.reserve <= 0 ? null : msg('history.reserve', { n: quota.reserve });
}

export function callsLeftText(state: Pick<HistoryState, 'state' | 'callsLeft'>): Message {
  if (state.state === 'complete' || state.callsLeft === 0) return msg('history.callsLeft.none');
  if (state.callsLeft === null) return msg('history.callsLeft.unknown');
  return msg('history.callsLeft.about', { n: state.callsLeft });
}

/** When the sync should be complete, in the page's zone and the reader's way of writing a date. */
export function completeAtText(state: Pick<HistoryState, 'state' | 'completeAt'>, zone: Zone, locale: Locale): Message {
  if (state.state === 'complete') return msg('history.completeAt.already');
  if (state.state === 'off' || state.state === 'paused') return msg('history.completeAt.stopped');
  const at = state.completeAt ? new Date(state.completeAt) : null;
  if (!at || Number.isNaN(at.getTime())) return msg('history.completeAt.unknown');
  return msg('history.completeAt.at', { at: formatInstant(at, zone, false, locale), zone });
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
