import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ReconcileView } from '@/components/reconcile/reconcile-view';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('reconcile');
  return { title: t('title') };
}

/** Reconcile: a list of trx_ids, references or numbers, each answered at the fewest calls the quota allows. */
export default function ReconcilePage() {
  return <ReconcileView />;
}
