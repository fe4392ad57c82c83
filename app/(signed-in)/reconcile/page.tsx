import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ReconcileView } from '@/components/reconcile/reconcile-view';
import { RoleNeeded } from '@/components/team/role-needed';
import { pageAllows } from '@/lib/root/page-role';
import { recheckPageSession } from '@/lib/root/page-session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('reconcile');
  return { title: t('title') };
}

/** Reconcile: a list of trx_ids, references or numbers, each answered at the fewest calls the quota allows. */
export default async function ReconcilePage() {
  await recheckPageSession();
  const { role, allowed } = await pageAllows('support');
  if (!allowed) return <RoleNeeded page="reconcile" needed="support" yours={role} />;
  return <ReconcileView />;
}
