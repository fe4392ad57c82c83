import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { firstParam } from '@/lib/http/page-params';
import { presetRange } from '@/lib/search';
import { zoneOf } from '@/lib/query/page-url';
import { preferredZone, recheckPageSession } from '@/lib/root/page-session';
import { PageMessages } from '../page-messages';
import { InsightsView } from '@/components/insights/insights-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('pages'))('insights') };
}

type SearchParams = Record<string, string | string[] | undefined>;

/** Delivery at a glance from the local history (components/insights). */
export default async function InsightsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await recheckPageSession();
  const params = await searchParams;
  // The range shown when the URL has none: the last 7 days, in the URL's zone (or the person's), as of this request.
  const defaultRange = presetRange(
    'last-7-days',
    new Date(),
    zoneOf({ tz: firstParam(params.tz) }, await preferredZone()),
  );
  return (
    <Suspense>
      {/* The coverage panel says the local history's state in its words. */}
      <PageMessages namespaces={['insights', 'history']}>
        <InsightsView defaultRange={defaultRange} />
      </PageMessages>
    </Suspense>
  );
}
