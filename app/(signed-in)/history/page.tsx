import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { PageMessages } from '../page-messages';
import { HistoryView } from '@/components/history/history-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('pages'))('history') };
}

/** The account's local history: how far the copy of its settled days has come, and its controls. */
export default function HistoryPage() {
  return (
    // The view reads the zone from the URL (useSearchParams), which needs a Suspense boundary.
    <Suspense>
      <PageMessages namespaces={['history']}>
        <HistoryView />
      </PageMessages>
    </Suspense>
  );
}
