import { describe, expect, it } from 'vitest';
import type { QuotaSnapshot } from '../governor/api';
import type { SearchPlan } from './api';
import { quotaSnapshot } from '@/tests/support/quota-snapshot';
import { translate } from '../i18n/translate';
import type { Locale } from '../i18n/locales';
import { planVerdict as verdictOf } from './plan-verdict';

/** The verdict as a person reads it in `locale` (English unless said). */
function planVerdict(plan: SearchPlan, waitSeconds: number, locale: Locale = 'en') {
  const verdict = verdictOf(plan, waitSeconds, locale);
  return { kind: verdict.kind, text: translate(locale, verdict.words) };
}

const quota = (remaining: [number, number, number], nextCallAt = '2026-11-20T11:59:00Z') =>
  quotaSnapshot(remaining, { nextCallAt });

const plan = (calls: number, q: QuotaSnapshot, cachedAgeSeconds: number | null = null): SearchPlan => ({
  calls,
  source: calls > 0 ? 'upstream' : 'cache',
  cachedAgeSeconds,
  quota: q,
});

describe('a search\u2019s cost in words', () => {
  it('says when the dashboard\u2019s shared calls are the tighter budget', () => {
    const q: QuotaSnapshot = {
      ...quota([3, 8, 90]),
      shared: [{ name: 'hour', limit: 10, used: 8, remaining: 2, freesAt: null, accounts: 3 }],
    };
    expect(planVerdict(plan(1, q), 0).text).toBe('Uses 1 of 2 of the dashboard\u2019s shared calls left this hour.');
  });

  it('says what a search will cost before it is made', () => {
    expect(planVerdict(plan(1, quota([3, 7, 93])), 0)).toEqual({
      kind: 'spends',
      text: 'Uses 1 of 3 calls left this minute.',
    });
    expect(planVerdict(plan(1, quota([3, 2, 93])), 0)).toEqual({
      kind: 'spends',
      text: 'Uses 1 of 2 calls left this hour.',
    });
    expect(planVerdict(plan(0, quota([0, 0, 93]), 125), 30)).toEqual({
      kind: 'cached',
      text: 'From cache, 2 min old: no upstream call.',
    });
    expect(planVerdict(plan(1, quota([0, 6, 93], '2026-11-20T12:00:41Z')), 41)).toEqual({
      kind: 'waits',
      text: 'Uses 1 upstream call; no call left this minute. Next free call in',
    });
  });

  it('says a search over the local history is free, and what part of the range it cannot search', () => {
    const q = quota([0, 0, 93]);
    expect(planVerdict({ calls: 0, source: 'history', cachedAgeSeconds: null, quota: q }, 30)).toEqual({
      kind: 'local',
      text: 'Local history: no call.',
    });
    const gap = { dateFrom: '2026-11-19 00:00:00', dateTo: '2026-11-20 12:00:00' };
    expect(
      planVerdict({ calls: 0, source: 'history', cachedAgeSeconds: null, quota: q, uncovered: [gap] }, 30).text,
    ).toBe('Local history: no call. Not synced yet, so not searched: one stretch of the range (see the History page).');
    expect(planVerdict({ calls: 2, source: 'mixed', cachedAgeSeconds: null, quota: quota([3, 7, 93]) }, 0).text).toBe(
      'Uses 2 of 3 calls left this minute (the rest from the local history).',
    );
    expect(
      planVerdict(
        { calls: 1, callsAtLeast: true, source: 'mixed', cachedAgeSeconds: null, quota: quota([3, 7, 93]) },
        0,
      ).text,
    ).toBe('Uses at least 1 of 3 calls left this minute (the rest from the local history).');
  });

  it('says the same in Japanese, with the codes and counts as Japanese consoles write them', () => {
    expect(planVerdict(plan(1, quota([3, 7, 93])), 0, 'ja')).toEqual({
      kind: 'spends',
      text: 'この1分間の残り3回のうち1回を使います。',
    });
    expect(planVerdict(plan(0, quota([0, 0, 93]), 125), 30, 'ja').text).toBe('キャッシュから(2分前):API呼び出しなし。');
    expect(planVerdict(plan(1, quota([0, 6, 93], '2026-11-20T12:00:41Z')), 41, 'ja').text).toBe(
      'API呼び出しを1回使います。この1分間の残り回数がありません。次に呼び出せるまで',
    );
    expect(
      planVerdict({ calls: 0, source: 'history', cachedAgeSeconds: null, quota: quota([0, 0, 93]) }, 0, 'ja').text,
    ).toBe('保存済み履歴から:呼び出しなし。');
  });
});
