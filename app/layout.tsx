import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'SMS history', template: '%s · SMS history' },
  description: 'Transaction history and delivery reports of mobile-terminated SMS.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page, the 404 included, is rendered per request: Next.js can only stamp the request's CSP
  // nonce (proxy.ts) on the scripts of a page it renders now, and a prerendered page's would be blocked.
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
