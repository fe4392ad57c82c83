/**
 * Statuses and DLR error codes explained as a person reads them, in both languages (the glossary's
 * words), rendered as the server renders them.
 */
import { NextIntlClientProvider } from 'next-intl';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { messagesFor } from '@/lib/i18n/catalogue';
import type { Locale } from '@/lib/i18n/locales';
import { useCdrSentences } from './use-cdr-sentences';

function Said({ status, dlr }: { status?: string; dlr?: string }) {
  const say = useCdrSentences();
  return <>{status !== undefined ? say.status(status) : say.dlr(dlr!)}</>;
}

const said = (props: { status?: string; dlr?: string }, locale: Locale = 'en') =>
  renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={messagesFor(locale)} timeZone="UTC">
      <Said {...props} />
    </NextIntlClientProvider>,
  );

describe('a status and a DLR code explained', () => {
  it('explains statuses, final or in transit', () => {
    expect(said({ status: 'DELIVRD' })).toBe('Delivered to the handset. Final: this status will not change.');
    expect(said({ status: 'ENROUTE' })).toMatch(/In transit/);
    expect(said({ status: 'WEIRD' })).toMatch(/does not know/);
  });

  it('explains DLR error codes and whether a resend can help', () => {
    expect(said({ dlr: '001' })).toBe(
      'Unknown subscriber: the number does not exist. Permanent: resending will not help.',
    );
    expect(said({ dlr: '27' })).toMatch(/Temporary/);
    expect(said({ dlr: '0' })).toBe('No error.');
    expect(said({ dlr: '' })).toBe('');
    expect(said({ dlr: '9999' })).toMatch(/gateway-specific/);
  });

  it('says them in Japanese as Japanese consoles word them', () => {
    expect(said({ status: 'UNDELIV' }, 'ja')).toMatch(/最終ステータス/);
    expect(said({ dlr: '27' }, 'ja')).toMatch(/電源オフまたは圏外/);
    expect(said({ dlr: '001' }, 'ja')).toMatch(/恒久的/);
  });
});
