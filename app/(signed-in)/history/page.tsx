import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { PageMessages } from '../page-messages';
import { HistoryView } from '@/components/history/history-view';
import { RoleNeeded } from '@/components/team/role-needed';
import { pageAllows } from '@/lib/root/page-role';
import { recheckPageSession } from '@/lib/root/page-session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('pages'))('history') };
}

/** The account's local history: how far the copy of its settled days has come, and its controls. */
export default async function HistoryPage() {
  await recheckPageSession();
  // Its settings are an admin's (team mode); its state reaches others through Insights' coverage.
  const { role, allowed } = await pageAllows('admin');
  if (!allowed) return <RoleNeeded page="history" needed="admin" yours={role} />;
  return (
    // The view reads the zone from the URL (useSearchParams), which needs a Suspense boundary.
    <Suspense>
      <PageMessages namespaces={['history']}>
        <HistoryView />
      </PageMessages>
    </Suspense>
  );
}
