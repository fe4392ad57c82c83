'use client';
/**
 * Browser-side context for every page: one QueryClient per browser tab (made once, never shared
 * between requests on the server) and nuqs's adapter for URL state under the App Router, which lays
 * every URL it writes out in the query codec's order (lib/query/page-url.ts).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import { useState, type ReactNode } from 'react';
import { makeQueryClient } from '@/lib/http/query-client';
import { inPageUrlOrder } from '@/lib/query/page-url';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <NuqsAdapter processUrlSearchParams={inPageUrlOrder}>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
