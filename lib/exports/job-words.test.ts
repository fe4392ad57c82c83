import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import type { Locale } from '../i18n/locales';
import * as words from './job-words';
import { progressPercent, sizeText } from './job-words';

/** The words as a reader of `locale` reads them (English unless said). */
const stateText = (j: ExportJob, locale: Locale = 'en') => translate(locale, words.stateText(j, locale));
const progressText = (j: ExportJob, locale: Locale = 'en') => translate(locale, words.progressText(j));
const etaText = (j: ExportJob, now: number, locale: Locale = 'en') => {
  const eta = words.etaText(j, now, locale);
  return eta && translate(locale, eta);
};
const queryText = (j: ExportJob, locale: Locale = 'en') =>
  words
    .queryText(j, locale)
    .map((w) => translate(locale, w))
    .join(' \u00b7 ');
import type { ExportJob } from './api';

const NOW = Date.parse('2026-11-20T03:00:00Z');

function job(over: Partial<ExportJob> = {}): ExportJob {
  return {
    id: 'j',
    state: 'running',
    createdAt: '',
    updatedAt: '',
    finishedAt: null,
    expiresAt: null,
    query: {
      'date-from': '2026-11-01 00:00:00',
      'date-to': '2026-11-08 00:00:00',
      tz: 'JST',
      'sort-order': 'desc',
      status: 'DELIVRD',
    },
    requestedDateTo: null,
    columns: ['trx_id'],
    excel: false,
    fileName: 'f.csv',
    progress: {
      recordsFetched: 1234,
      totalExpected: 5000,
      callsSpent: 13,
      pagesCached: 0,
      recordsFromHistory: 0,
      windows: [{ dateFrom: '', dateTo: '', totalFound: 5000, pagesDone: 13, pagesTotal: 50, state: 'running' }],
    },
    waitingUntil: null,
    message: null,
    warnings: [],
    countCheck: null,
    fileBytes: null,
    schedule: null,
    _links: { self: { href: '/api/exports/j' } },
    ...over,
  };
}

describe('job words', () => {
  it('says the state, with the quota time in the job zone', () => {
    expect(stateText(job())).toBe('Running');
    expect(stateText(job({ state: 'waiting', waitingUntil: '2026-11-20T05:30:00.000Z' }))).toBe(
      'Waiting for quota until 2026-11-20 14:30 JST',
    );
    expect(stateText(job({ state: 'waiting', waitingUntil: null }))).toBe('Waiting for a sign-in');
  });

  it('measures progress against the expected records', () => {
    expect(progressPercent(job())).toBe(24);
    expect(progressText(job())).toBe('1,234 of 5,000 records');
    expect(progressPercent(job({ progress: { ...job().progress, totalExpected: null } }))).toBeNull();
    expect(progressText(job({ progress: { ...job().progress, totalExpected: null } }))).toBe('1,234 records so far');
    expect(progressPercent(job({ state: 'done' }))).toBe(100);
  });

  it('says when it should be done', () => {
    const schedule = {
      calls: 37,
      callsAhead: 0,
      startsAt: '',
      finishAt: '2026-11-20T07:10:00.000Z',
      durationMs: 0,
      perMinute: 3,
      perHour: 7,
      perDay: 97,
      reserve: 3,
      fitsNow: false,
    };
    expect(etaText(job({ schedule }), NOW)).toBe('about 4 h 10 min (by 2026-11-20 16:10 JST)');
    expect(etaText(job(), NOW)).toBeNull();
    expect(etaText(job({ schedule: { ...schedule, finishAt: null } }), NOW)).toBe('never at the current limits');
  });

  it('describes the query and the file size', () => {
    expect(queryText(job())).toBe(
      '2026-11-01 00:00 \u2013 2026-11-08 00:00 JST \u00b7 Status DELIVRD \u00b7 newest first',
    );
    expect(sizeText(512)).toBe('512 B');
    expect(sizeText(12_900_000)).toBe('12.3 MB');
  });

  it('says the same in Japanese, times as Japanese readers write them', () => {
    expect(stateText(job({ state: 'waiting', waitingUntil: '2026-11-20T05:30:00.000Z' }), 'ja')).toBe(
      '呼び出し上限のため 2026/11/20 14:30 JST まで待機中',
    );
    expect(progressText(job(), 'ja')).toBe('5,000件中1,234件');
    expect(queryText(job(), 'ja')).toBe(
      '2026/11/01 00:00 \u2013 2026/11/08 00:00 JST \u00b7 配信ステータス DELIVRD \u00b7 新しい順',
    );
  });
});
