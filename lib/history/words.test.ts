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
/** The words as each reader reads them. */
const en = (words: Words | null) => (words === null ? null : translate('en', words));
const ja = (words: Words | null) => (words === null ? null : translate('ja', words));

describe('the local history in words', () => {
  it('labels a calendar day with its state and its exact count', () => {
    expect(en(dayLabel({ day: '2026-11-03', state: 'complete', records: 33_120 }, 'en'))).toBe(
      '2026-11-03: complete, 33,120 records',
    );
    expect(en(dayLabel({ day: '2026-11-03', state: 'complete', records: 1 }, 'en'))).toBe(
      '2026-11-03: complete, 1 record',
    );
    expect(en(dayLabel({ day: '2026-11-04', state: 'syncing', records: 400 }, 'en'))).toBe(
      '2026-11-04: syncing, 400 records',
    );
    expect(en(dayLabel({ day: '2026-11-05', state: 'pending', records: 0 }, 'en'))).toBe('2026-11-05: not synced yet');
    expect(en(dayLabel({ day: '2026-11-09', state: 'unsettled', records: 0 }, 'en'))).toBe(
      '2026-11-09: not settled yet',
    );
    expect(en(dayLabel({ day: '2026-11-06', state: 'waiting', records: 0 }, 'en'))).toBe(
      '2026-11-06: waiting for a call',
    );
    // 3 November 2026 is a Tuesday.
    expect(ja(dayLabel({ day: '2026-11-03', state: 'complete', records: 33_120 }, 'ja'))).toBe(
      '11月3日(火):完了、33,120件',
    );
    expect(ja(dayLabel({ day: '2026-11-09', state: 'unsettled', records: 0 }, 'ja'))).toBe('11月9日(月):未確定');
  });

  it('says what people still have in the tightest window, and what the sync leaves them', () => {
    expect(en(peopleCallsText(quota([3, 7, 93])))).toBe('People still have 3 calls this minute.');
    expect(en(peopleCallsText(quota([3, 1, 93])))).toBe('People still have 1 call this hour.');
    expect(ja(peopleCallsText(quota([3, 1, 93])))).toBe('検索に使える残り回数はこの1時間1回です。');
    const shared: QuotaSnapshot = {
      ...quota([3, 8, 90]),
      shared: [{ name: 'hour', limit: 10, used: 8, remaining: 2, freesAt: null, accounts: 3 }],
    };
    expect(en(peopleCallsText(shared))).toBe(
      'People still have 2 calls this hour (shared by every account of this dashboard).',
    );
    expect(en(reserveText(quota([3, 7, 93], 3)))).toBe('The sync never takes the last 3 calls of each hour and day.');
    expect(en(reserveText(quota([3, 7, 93], 1)))).toBe('The sync never takes the last call of each hour and day.');
    expect(ja(reserveText(quota([3, 7, 93], 3)))).toBe('同期は、1時間・1日ごとの最後の3回を使いません。');
    expect(reserveText(quota([3, 7, 93], 0))).toBeNull();
  });

  it('says why the sync waits or stopped with the server’s own message', () => {
    const synced = [{ day: '2026-11-20', state: 'complete' as const, records: 3 }];
    expect(en(historyStateDetail({ state: 'waiting', message: 'Waiting for a sign-in: …', days: [] }))).toBe(
      'Waiting for a sign-in: …',
    );
    expect(
      en(historyStateDetail({ state: 'paused', message: 'The upstream refused the sync (403).', days: synced })),
    ).toBe('The upstream refused the sync (403).');
    expect(en(historyStateDetail({ state: 'off', message: null, days: [] }))).toMatch(/press Start/);
    expect(ja(historyStateDetail({ state: 'off', message: null, days: [] }))).toMatch(/「開始」を押してください/);
    expect(en(historyStateWord({ state: 'off' }))).toBe('Off');
    // Paused by a person after days were synced: they still answer.
    expect(en(historyStateWord({ state: 'paused' }))).toBe('Paused');
    expect(ja(historyStateWord({ state: 'syncing' }))).toBe('同期中');
    expect(en(historyStateDetail({ state: 'paused', message: null, days: synced }))).toMatch(
      /still answer searches for free/,
    );
    // Paused before its first day was complete: Start goes on from there.
    const partly = [{ day: '2026-11-20', state: 'pending' as const, records: 300 }];
    expect(en(historyStateDetail({ state: 'paused', message: null, days: partly }))).toBe(
      'Nothing is being synced; Start goes on from where the sync stopped.',
    );
  });

  it('says which records kept are of complete search results rather than of synced days', () => {
    const days = [
      { day: '2026-11-20', state: 'complete' as const, records: 21_775 },
      { day: '2026-11-21', state: 'pending' as const, records: 0 },
    ];
    expect(en(recordsKeptText({ records: 21_775, days }))).toBe('21,775 records');
    expect(en(recordsKeptText({ records: 22_100, days }))).toBe(
      '22,100 records: 21,775 of the synced days, 325 of complete search results',
    );
    expect(ja(recordsKeptText({ records: 22_100, days }))).toBe(
      '22,100件(同期済みの日の21,775件、全件読み込んだ検索結果の325件)',
    );
    expect(en(recordsKeptText({ records: 325, days: [] }))).toBe(
      '325 records: 0 of the synced days, 325 of complete search results',
    );
    // A day being synced counts what it read before it is all stored: no split then.
    expect(en(recordsKeptText({ records: 100, days: [{ day: '2026-11-22', state: 'syncing', records: 400 }] }))).toBe(
      '100 records',
    );
  });

  it('says what is left to pay and when it is done, in the page’s zone and the reader’s date form', () => {
    expect(en(callsLeftText({ state: 'syncing', callsLeft: 1_234 }))).toBe('About 1,234');
    expect(ja(callsLeftText({ state: 'syncing', callsLeft: 1_234 }))).toBe('約1,234回');
    expect(en(callsLeftText({ state: 'complete', callsLeft: 0 }))).toBe('None');
    expect(en(callsLeftText({ state: 'waiting', callsLeft: null }))).toBe(
      'Not known yet: a day’s first page tells its size',
    );
    const at = '2026-11-20T15:04:05.000Z';
    expect(en(completeAtText({ state: 'syncing', completeAt: at }, 'UTC', 'en'))).toBe('2026-11-20 15:04:05 UTC');
    expect(en(completeAtText({ state: 'syncing', completeAt: at }, 'JST', 'en'))).toBe('2026-11-21 00:04:05 JST');
    // The language does not pick the zone: a Japanese reader who chose UTC reads UTC.
    expect(ja(completeAtText({ state: 'syncing', completeAt: at }, 'UTC', 'ja'))).toBe('2026/11/20 15:04:05(UTC)');
    expect(ja(completeAtText({ state: 'syncing', completeAt: at }, 'JST', 'ja'))).toBe('2026/11/21 00:04:05(JST)');
    expect(en(completeAtText({ state: 'waiting', completeAt: null }, 'UTC', 'en'))).toBe('Not known yet');
    expect(en(completeAtText({ state: 'complete', completeAt: at }, 'UTC', 'en'))).toBe('Already complete');
    expect(en(completeAtText({ state: 'off', completeAt: null }, 'UTC', 'en'))).toBe('Not while the sync is stopped');
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
