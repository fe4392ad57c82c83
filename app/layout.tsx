import type { Metadata, Viewport } from 'next';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getTranslations } from 'next-intl/server';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { clientMessages } from '@/lib/i18n/catalogue';
import { Providers } from './providers';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('common');
  return {
    title: { default: t('appName'), template: `%s · ${t('appName')}` },
    description: t('appDescription'),
  };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page, the 404 included, is rendered per request: Next.js can only stamp the request's CSP
  // nonce (proxy.ts) on the scripts of a page it renders now, and a prerendered page's would be blocked.
  // Rendered per request, each page is also in its reader's language (lib/root/intl-request.ts).
  await connection();
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body>
        {/* The browser gets its own language's words only, and not the server's (problem details). */}
        <NextIntlClientProvider locale={locale} messages={clientMessages(locale)} timeZone="UTC">
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
