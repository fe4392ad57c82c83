import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { firstParam } from '@/lib/http/page-params';
import { DEFAULT_PRESET, presetRange } from '@/lib/search';
import { openedFromAnotherSite } from '@/lib/root/page-intent';
import { zoneOf } from '@/lib/query/page-url';
import { preferredZone } from '@/lib/root/page-session';
import { TransactionsView } from '@/components/search/transactions-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('pages'))('transactions') };
}

type SearchParams = Record<string, string | string[] | undefined>;

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  // The form's range when the URL has none: the last 24 hours, in the URL's zone (or the person's), as of this request.
  const defaultRange = presetRange(
    DEFAULT_PRESET,
    new Date(),
    zoneOf({ tz: firstParam(params.tz) }, await preferredZone()),
  );
  return (
    <Suspense>
      <TransactionsView defaultRange={defaultRange} heldLink={await openedFromAnotherSite()} />
    </Suspense>
  );
}
