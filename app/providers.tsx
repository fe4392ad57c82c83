'use client';
/**
 * Browser-side context for every page: one QueryClient per browser tab (made once, never shared
 * between requests on the server) and nuqs's adapter for URL state under the App Router.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import { useState, type ReactNode } from 'react';
import { makeQueryClient } from '@/lib/http/query-client';

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <NuqsAdapter>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
