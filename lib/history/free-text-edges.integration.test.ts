/**
 * Any free text the search form accepts is answered: 200 with what it finds, or a 400 that names
 * `q` and says why — never a 500. Characters at the edges of Unicode (U+10FFFF, the last before
 * the surrogates, a lone surrogate from a JSON body), LIKE's and FTS5's own syntax, on both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../query/query';
import { ProblemError } from '../http/problem';
import { BACKENDS } from '../../tests/support/backends';
import { startHarnessOn } from '../../tests/support/harness-on';
import type { Harness } from '../../tests/support/service-harness';
import { loadHistoryFixture } from '../../tests/support/history-fixture';
import { scopeOf } from './scope';
import { addDays, dayOf } from './days';
import { prefixSuccessor } from '../cdr/typed-text';

const TEXTS = [
  '\u{10FFFF}\u{10FFFF}',
  '\u{10FFFF}\u{10FFFF}\u{10FFFF}',
  'a\u{10FFFF}',
  '\u{10FFFF}a',
  '\uD7FF\uD7FF',
  '\uFFFF\uFFFF',
  '\uD800\uD800',
  '配達',
  '"\'',
  '%_',
  '\\\\',
  'NEAR(a b)',
  '* OR *',
  'x'.repeat(100),
];

describe.each(BACKENDS)('free text on %s', (dialect) => {
  let h: Harness;
  const today = dayOf(Date.now());
  beforeAll(async () => {
    h = await startHarnessOn(dialect, { sim: { days: 10, perDay: 300 } });
    await loadHistoryFixture(h.store.history, h.sim.dataset, {
      scope: scopeOf({ apiKey: 'demo', enterpriseId: 'ent-sakura' }).key,
      enterpriseId: 'ent-sakura',
      fromDay: addDays(today, -8),
      toDay: addDays(today, -5),
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it.each(TEXTS)('answers q=%j with 200 or a 400 about q', async (q) => {
    const parsed = parseQuery(
      new URLSearchParams({
        'date-from': `${addDays(today, -8)} 00:00:00`,
        'date-to': `${addDays(today, -5)} 23:59:59`,
        q,
      }),
    );
    if (!parsed.ok) {
      expect(Object.keys(parsed.errors)).toEqual(['q']);
      expect(parsed.errors.q).toMatch(/\w/);
      return;
    }
    const page = await h.transactions.page(h.account('demo'), parsed.query).catch((err: unknown) => {
      // A refusal must be a 400 that says why, never an error of ours.
      if (err instanceof ProblemError && err.problem.status === 400) return null;
      throw err;
    });
    if (page) expect(page._meta.source).toBe('history');
  });

  it('finds text that is there, at the edges as elsewhere', async () => {
    const parsed = parseQuery(
      new URLSearchParams({
        'date-from': `${addDays(today, -8)} 00:00:00`,
        'date-to': `${addDays(today, -5)} 23:59:59`,
        q: 'sakura',
      }),
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const page = await h.transactions.page(h.account('demo'), parsed.query);
    expect(page._embedded.total_found).toBeGreaterThan(0);
  });
});

describe('the first string after a prefix', () => {
  it('goes one code point up, carrying past the top of Unicode and over the surrogates', () => {
    expect(prefixSuccessor('ab')).toBe('ac');
    expect(prefixSuccessor('a\u{10FFFF}')).toBe('b');
    expect(prefixSuccessor('\u{10FFFF}\u{10FFFF}')).toBeNull();
    expect(prefixSuccessor('a\uD7FF')).toBe('a\uE000');
  });
});
