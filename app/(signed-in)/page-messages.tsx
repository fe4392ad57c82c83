/**
 * The words of a page's own namespaces (lib/i18n/catalogue.ts PAGE_ONLY), added for its view only:
 * the root layout sends every page the shared ones, and this provider, inside the page, holds those
 * plus the page's (next-intl's providers do not merge: each holds all it provides).
 *
 *   <PageMessages namespaces={['insights', 'history']}><InsightsView … /></PageMessages>
 */
import { NextIntlClientProvider } from 'next-intl';
import { getLocale } from 'next-intl/server';
import type { ReactNode } from 'react';
import { clientMessages } from '@/lib/i18n/catalogue';
import type { Messages } from '@/lib/i18n/messages-type';

export async function PageMessages({
  namespaces,
  children,
}: {
  namespaces: readonly (keyof Messages)[];
  children: ReactNode;
}) {
  const locale = await getLocale();
  return (
    <NextIntlClientProvider locale={locale} messages={clientMessages(locale, namespaces)} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}
