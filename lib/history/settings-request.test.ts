import { describe, expect, it } from 'vitest';
import { parseHistorySettings } from './settings-request';
import { said } from '@/tests/support/said';

const NOW = Date.UTC(2026, 10, 20, 23, 30, 0);
const rules = { now: NOW, maxDays: 400 };

describe('a change of the local history’s settings', () => {
  it('takes any of enabled, since and keepSyncingSignedOut, and only what was sent', () => {
    expect(parseHistorySettings({ enabled: true, since: '2026-10-01' }, rules)).toEqual({
      ok: true,
      query: { enabled: true, since: '2026-10-01' },
    });
    expect(parseHistorySettings({ keepSyncingSignedOut: false }, rules)).toEqual({
      ok: true,
      query: { keepSyncingSignedOut: false },
    });
    expect(parseHistorySettings({}, rules)).toEqual({ ok: true, query: {} });
  });

  it('holds the start day between HISTORY_MAX_DAYS back and the server’s today, saying which', () => {
    expect(parseHistorySettings({ since: '2026-11-20' }, rules).ok).toBe(true);
    expect(parseHistorySettings({ since: '2025-10-16' }, rules).ok).toBe(true);
    expect(said(parseHistorySettings({ since: '2026-11-21' }, rules))).toEqual({
      ok: false,
      errors: { since: 'since must not be in the future.' },
    });
    expect(said(parseHistorySettings({ since: '2025-10-15' }, rules))).toEqual({
      ok: false,
      errors: { since: 'since may go back at most 400 days (HISTORY_MAX_DAYS): 2025-10-16 or later.' },
    });
    expect(said(parseHistorySettings({ since: '2026-02-30' }, rules))).toMatchObject({
      ok: false,
      errors: { since: expect.stringContaining('YYYY-MM-DD') },
    });
  });

  it('names each wrong value, and refuses a body that is not an object', () => {
    expect(said(parseHistorySettings({ enabled: 'yes', keepSyncingSignedOut: 1, colour: 'red' }, rules))).toEqual({
      ok: false,
      errors: {
        enabled: 'enabled must be true or false.',
        keepSyncingSignedOut: 'keepSyncingSignedOut must be true or false.',
        colour: 'Unknown setting "colour": use enabled, since and keepSyncingSignedOut.',
      },
    });
    expect(parseHistorySettings([true], rules)).toMatchObject({ ok: false, errors: { body: expect.anything() } });
    // Said in the reader's language.
    expect(said(parseHistorySettings({ since: '2025-10-15' }, rules), 'ja')).toEqual({
      ok: false,
      errors: { since: '開始日(since)は最大400日前(HISTORY_MAX_DAYS)まで、2025-10-16以降にしてください。' },
    });
  });
});
