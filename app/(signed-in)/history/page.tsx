import type { Metadata } from 'next';
import { Suspense } from 'react';
import { HistoryView } from '@/components/history/history-view';

export const metadata: Metadata = { title: 'Local history' };

/** The account's local history: how far the copy of its settled days has come, and its controls. */
export default function HistoryPage() {
  return (
    // The view reads the zone from the URL (useSearchParams), which needs a Suspense boundary.
    <Suspense>
      <HistoryView />
    </Suspense>
  );
}
