import type { Metadata } from 'next';
import { ExportsList } from '@/components/exports/exports-list';

export const metadata: Metadata = { title: 'Exports' };

/** The account's CSV exports: progress, time left, cancel, and the file once done. */
export default function ExportsPage() {
  return <ExportsList />;
}
