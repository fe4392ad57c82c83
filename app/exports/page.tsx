import type { Metadata } from 'next';
import { requirePageSession } from '@/lib/auth/session';
import { AppShell } from '@/components/shell/AppShell';
import { ExportsList } from '@/components/exports/exports-list';

export const metadata: Metadata = { title: 'Exports' };

/** The account's CSV exports: progress, time left, cancel, and the file once done. */
export default async function ExportsPage() {
  const session = await requirePageSession('/exports');
  return (
    <AppShell account={session}>
      <ExportsList />
    </AppShell>
  );
}
