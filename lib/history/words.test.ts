import { describe, expect, it } from 'vitest';
import type { QuotaSnapshot } from '../governor/api';
import type { HistoryState } from './api';
import { quotaSnapshot } from '@/tests/support/quota-snapshot';
import type { Words } from '../i18n/message';
import { translate } from '../i18n/translate';
import {
  callsLeftText,
  completeAtText,
  dayLabel,
  historyStateDetail,
  historyStateWord,
  keepsUpWithText,
  pageSizeText,
  peopleCallsText,
  recordsKeptText,
  reserveText,
} from './words';

const quota = (remaining: [number, number, number], reserve = 3) => quotaSnapshot(remaining, { reserve });

describe('the local history in words', () => {
  it('labels a calendar day with its state and its exact count', () => {
    expect(dayLabel({ day: '2026-11-03', state: 'complete', records: 33_120 })).toBe(
      '2026-11-03: complete, 33,120 records',
    );
    expect(dayLabel({ day: '2026-11-03', state: 'complete', records: 1 })).toBe('2026-11-03: complete, 1 record');
    expect(dayLabel({ day: '2026-11-04', state: 'syncing', records: 400 })).toBe('2026-11-04: copying, 400 records');
    expect(dayLabel({ day: '2026-11-05', state: 'pending', records: 0 })).toBe('2026-11-05: not copied yet');
    expect(dayLabel({ day: '2026-11-09', state: 'unsettled', records: 0 })).toBe('2026-11-09: not settled yet');
    expect(dayLabel({ day: '2026-11-06', state: 'waiting', records: 0 })).toBe('2026-11-06: waiting for a call');
  });

  it('says what people still have in the tightest window, and what the copy leaves them', () => {
    expect(peopleCallsText(quota([3, 7, 93]))).toBe('People still have 3 calls this minute.');
    expect(peopleCallsText(quota([3, 1, 93]))).toBe('People still have 1 call this hour.');
    const shared: QuotaSnapshot = {
      ...quota([3, 8, 90]),
      shared: [{ name: 'hour', limit: 10, used: 8, remaining: 2, freesAt: null, accounts: 3 }],
    };
    expect(peopleCallsText(shared)).toBe(
      'People still have 2 calls this hour (shared by every account of this dashboard).',
    );
    expect(reserveText(quota([3, 7, 93], 3))).toBe('The copy never takes the last 3 calls of each hour and day.');
    expect(reserveText(quota([3, 7, 93], 1))).toBe('The copy never takes the last call of each hour and day.');
    expect(reserveText(quota([3, 7, 93], 0))).toBeNull();
  });

  it('says why the copy waits or stopped with the server’s own message', () => {
    const copied = [{ day: '2026-11-20', state: 'complete' as const, records: 3 }];
    expect(historyStateDetail({ state: 'waiting', message: 'Waiting for a sign-in: …', days: [] })).toBe(
      'Waiting for a sign-in: …',
    );
    expect(historyStateDetail({ state: 'paused', message: 'The upstream refused the copy (403).', days: copied })).toBe(
      'The upstream refused the copy (403).',
    );
    expect(historyStateDetail({ state: 'off', message: null, days: [] })).toMatch(/press Start/);
    expect(historyStateWord({ state: 'off' })).toBe('Off');
    // Paused by a person after days were copied: they still answer.
    expect(historyStateWord({ state: 'paused' })).toBe('Paused');
    expect(historyStateDetail({ state: 'paused', message: null, days: copied })).toMatch(
      /still answer searches for free/,
    );
    // Paused before its first day was complete: Start goes on from there.
    const partly = [{ day: '2026-11-20', state: 'pending' as const, records: 300 }];
    expect(historyStateDetail({ state: 'paused', message: null, days: partly })).toBe(
      'Nothing is being copied; Start goes on from where the copy stopped.',
    );
  });

  it('says which records kept are of complete search results rather than of copied days', () => {
    const days = [
      { day: '2026-11-20', state: 'complete' as const, records: 21_775 },
      { day: '2026-11-21', state: 'pending' as const, records: 0 },
    ];
    expect(recordsKeptText({ records: 21_775, days })).toBe('21,775 records');
    expect(recordsKeptText({ records: 22_100, days })).toBe(
      '22,100 records: 21,775 of the copied days, 325 of complete search results',
    );
    expect(recordsKeptText({ records: 325, days: [] })).toBe(
      '325 records: 0 of the copied days, 325 of complete search results',
    );
    // A day being copied counts what it read before it is all stored: no split then.
    expect(recordsKeptText({ records: 100, days: [{ day: '2026-11-22', state: 'syncing', records: 400 }] })).toBe(
      '100 records',
    );
  });

  it('says what is left to pay and when it is done, in the page’s zone', () => {
    expect(callsLeftText({ state: 'syncing', callsLeft: 1_234 })).toBe('About 1,234');
    expect(callsLeftText({ state: 'complete', callsLeft: 0 })).toBe('None');
    expect(callsLeftText({ state: 'waiting', callsLeft: null })).toBe(
      'Not known yet: a day’s first page tells its size',
    );
    expect(completeAtText({ state: 'syncing', completeAt: '2026-11-20T15:04:05.000Z' }, 'UTC')).toBe(
      '2026-11-20 15:04:05 UTC',
    );
    expect(completeAtText({ state: 'syncing', completeAt: '2026-11-20T15:04:05.000Z' }, 'JST')).toBe(
      '2026-11-21 00:04:05 JST',
    );
    expect(completeAtText({ state: 'waiting', completeAt: null }, 'UTC')).toBe('Not known yet');
    expect(completeAtText({ state: 'complete', completeAt: '2026-11-20T15:04:05.000Z' }, 'UTC')).toBe(
      'Already complete',
    );
    expect(completeAtText({ state: 'off', completeAt: null }, 'UTC')).toBe('Not while the copy is stopped');
  });

  it('says the page size the sync reads with, and why, and how many messages a day it keeps up with, in both languages', () => {
    const size = (s: Partial<HistoryState['pageSize']>) => ({
      pageSize: { size: 1000, source: 'probed' as const, decidedAt: null, refused: null, ...s },
    });
    const en = (words: Words) => translate('en', words);
    const ja = (words: Words) => translate('ja', words);
    expect(en(pageSizeText(size({})))).toBe('1,000 records a call (the most the Report API serves)');
    expect(ja(pageSizeText(size({})))).toBe('1回の呼び出しで1,000件(Report API が返す最大)');
    const refused = pageSizeText(size({ size: 100, source: 'fallback', refused: { asked: 1000, status: 422 } }));
    expect(en(refused)).toBe('100 records a call: the Report API refused 1,000 a page (422)');
    expect(ja(refused)).toBe('1回の呼び出しで100件:Report API が1ページ1,000件を拒否しました(422)');
    expect(en(pageSizeText(size({ size: 1, source: 'configured' })))).toBe(
      '1 record a call (set by UPSTREAM_PAGE_SIZE)',
    );
    expect(en(pageSizeText(size({ size: 100, source: 'fallback' })))).toBe(
      '100 records a call (the Report API refused more)',
    );
    expect(en(pageSizeText(size({ size: 100, source: 'unprobed' })))).toMatch(/^100 records a call until/);
    expect(en(keepsUpWithText({ keepsUpWith: 60_000 }))).toBe('About 60,000 messages a day');
    expect(ja(keepsUpWithText({ keepsUpWith: 60_000 }))).toBe('1日あたり約60,000通');
    expect(en(keepsUpWithText({ keepsUpWith: 0 }))).toMatch(/^None/);
  });
});
