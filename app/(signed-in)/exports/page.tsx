import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ExportsList } from '@/components/exports/exports-list';
import { RoleNeeded } from '@/components/team/role-needed';
import { pageAllows } from '@/lib/root/page-role';
import { recheckPageSession } from '@/lib/root/page-session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('pages'))('exports') };
}

/** The account's CSV exports: progress, time left, cancel, and the file once done. */
export default async function ExportsPage() {
  await recheckPageSession();
  const { role, allowed } = await pageAllows('support');
  if (!allowed) return <RoleNeeded page="exports" needed="support" yours={role} />;
  return <ExportsList />;
}
