import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate';
import { checkCount as check } from './count-check';

/** The check, its warnings as an English reader reads them. */
const checkCount = (...args: Parameters<typeof check>) => {
  const result = check(...args);
  return { ...result, warnings: result.warnings.map((w) => translate('en', w)) };
};

describe('checkCount', () => {
  it('is happy when the file holds what the upstream reported', () => {
    const { check, warnings } = checkCount({
      windows: [{ totalFound: 250, received: 250, label: 'a' }],
      written: 250,
      duplicates: 0,
      overlapDuplicates: 0,
    });
    expect(check).toEqual({ expected: 250, written: 250, duplicates: 0, difference: 0, ok: true });
    expect(warnings).toEqual([]);
  });

  it('accounts for a record counted by two windows that share a boundary', () => {
    const { check, warnings } = checkCount({
      windows: [
        { totalFound: 100, received: 100, label: 'a' },
        { totalFound: 50, received: 50, label: 'b' },
      ],
      written: 149,
      duplicates: 1,
      overlapDuplicates: 1,
    });
    expect(check.ok).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('reports missing records and the window they went missing from', () => {
    const { check, warnings } = checkCount({
      windows: [{ totalFound: 120, received: 118, label: 'Jan' }],
      written: 118,
      duplicates: 0,
      overlapDuplicates: 0,
    });
    expect(check).toMatchObject({ expected: 120, written: 118, difference: -2, ok: false });
    expect(warnings).toEqual([
      expect.stringContaining('Window Jan: the upstream reported 120 records and sent 118'),
      expect.stringContaining('2 fewer than the 120'),
    ]);
  });

  it('reports extra records too', () => {
    const { check, warnings } = checkCount({
      windows: [{ totalFound: 10, received: 10, label: 'a' }],
      written: 11,
      duplicates: 0,
      overlapDuplicates: 0,
    });
    expect(check.difference).toBe(1);
    expect(warnings.at(-1)).toContain('1 more than the 10');
  });
});
