import type { Metadata } from 'next';
import { Suspense } from 'react';
import { firstParam } from '@/lib/http/page-params';
import { presetRange } from '@/lib/search';
import { zoneOf } from '@/lib/query/page-url';
import { preferredZone } from '@/lib/root/page-session';
import { InsightsView } from '@/components/insights/insights-view';

export const metadata: Metadata = { title: 'Insights' };

type SearchParams = Record<string, string | string[] | undefined>;

/** Delivery at a glance from the local history (components/insights). */
export default async function InsightsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  // The range shown when the URL has none: the last 7 days, in the URL's zone (or the person's), as of this request.
  const defaultRange = presetRange(
    'last-7-days',
    new Date(),
    zoneOf({ tz: firstParam(params.tz) }, await preferredZone()),
  );
  return (
    <Suspense>
      <InsightsView defaultRange={defaultRange} />
    </Suspense>
  );
}
