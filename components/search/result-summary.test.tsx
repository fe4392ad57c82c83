/**
 * The source label's words, rendered as the server renders them (no browser needed): "then" and
 * "… ago" only once this browser has held the answer a while, never for calls just spent.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NextIntlClientProvider } from 'next-intl';
import { messagesFor } from '@/lib/i18n/catalogue';
import type { Locale } from '@/lib/i18n/locales';
import type { TransactionsMeta } from '@/lib/search';
import { SourceTag } from './result-summary';

type Meta = Pick<TransactionsMeta, 'source' | 'ageSeconds' | 'calls'>;
const label = (meta: Meta, heldSeconds: number, locale: Locale = 'en') =>
  renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={messagesFor(locale)} timeZone="UTC">
      <SourceTag meta={meta} fetchedAt={Date.now() - heldSeconds * 1000} />
    </NextIntlClientProvider>,
  ).replace(/<[^>]+>/g, '');

describe('SourceTag', () => {
  it('says an upstream answer spent its call now, and once held for minutes, when it did', () => {
    expect(label({ source: 'upstream', ageSeconds: 0, calls: 1 }, 0)).toBe('From the upstream · 1 call used');
    expect(label({ source: 'upstream', ageSeconds: 0, calls: 2 }, 200)).toBe(
      'From the upstream, 3 min ago · 2 calls used then',
    );
  });

  it('counts a stale stand-in’s failed call as spent now, however old the copy standing in', () => {
    expect(label({ source: 'cache', ageSeconds: 180, calls: 1 }, 0)).toBe('From cache, 3 min old · 1 failed call used');
    expect(label({ source: 'cache', ageSeconds: 180, calls: 1 }, 120)).toBe(
      'From cache, 5 min old · 1 failed call used then',
    );
    expect(label({ source: 'cache', ageSeconds: 30, calls: 0 }, 0)).toBe('From cache, 30 s old');
  });

  it('says a mixed answer’s calls were spent now until it has been held a while', () => {
    expect(label({ source: 'mixed', ageSeconds: 300, calls: 1 }, 0)).toBe('Local history + upstream · 1 call used');
    expect(label({ source: 'mixed', ageSeconds: 300, calls: 1 }, 90)).toBe(
      'Local history + upstream, 1 min ago · 1 call used then',
    );
  });

  it('never ages a local history answer: it spent nothing', () => {
    expect(label({ source: 'history', ageSeconds: 0, calls: 0 }, 600)).toBe('From local history · no call');
  });

  it('says the same in Japanese', () => {
    expect(label({ source: 'upstream', ageSeconds: 0, calls: 2 }, 200, 'ja')).toBe(
      'APIから(3分前) · 2回使用(その時点)',
    );
    expect(label({ source: 'cache', ageSeconds: 180, calls: 0 }, 0, 'ja')).toBe('キャッシュから(3分前)');
    expect(label({ source: 'history', ageSeconds: 0, calls: 0 }, 600, 'ja')).toBe('保存済み履歴から · 呼び出しなし');
  });
});
