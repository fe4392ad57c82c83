import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ExportsList } from '@/components/exports/exports-list';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('pages'))('exports') };
}

/** The account's CSV exports: progress, time left, cancel, and the file once done. */
export default function ExportsPage() {
  return <ExportsList />;
}
