import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { AuditView } from '@/components/team/audit-view';
import { RoleNeeded } from '@/components/team/role-needed';
import { pageAllows } from '@/lib/root/page-role';
import { recheckPageSession } from '@/lib/root/page-session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('team.audit'))('title') };
}

/** The audit log (admins): filters, entries, CSV. */
export default async function AuditPage() {
  await recheckPageSession();
  const { role, allowed } = await pageAllows('admin');
  if (!allowed) return <RoleNeeded page="admin" needed="admin" yours={role} />;
  return (
    // The view keeps its filters in the URL (useSearchParams), which needs a Suspense boundary.
    <Suspense>
      <AuditView />
    </Suspense>
  );
}
