import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { firstParam } from '@/lib/http/page-params';
import { DEFAULT_PRESET, presetRange } from '@/lib/search';
import { openedFromAnotherSite } from '@/lib/root/page-intent';
import { zoneOf } from '@/lib/query/page-url';
import { preferredZone, recheckPageSession } from '@/lib/root/page-session';
import { TransactionsView } from '@/components/search/transactions-view';
import { MaskedNote } from '@/components/team/masked-note';
import { RoleNeeded } from '@/components/team/role-needed';
import { rolesMasked } from '@/lib/team';
import { pageAllows } from '@/lib/root/page-role';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('pages'))('transactions') };
}

type SearchParams = Record<string, string | string[] | undefined>;

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await recheckPageSession();
  const { role, allowed } = await pageAllows('support');
  if (!allowed) return <RoleNeeded page="transactions" needed="support" yours={role} />;
  const params = await searchParams;
  // The form's range when the URL has none: the last 24 hours, in the URL's zone (or the person's), as of this request.
  const defaultRange = presetRange(
    DEFAULT_PRESET,
    new Date(),
    zoneOf({ tz: firstParam(params.tz) }, await preferredZone()),
  );
  return (
    <>
      {rolesMasked(role) ? <MaskedNote role={role} /> : null}
      <Suspense>
        <TransactionsView defaultRange={defaultRange} heldLink={await openedFromAnotherSite()} />
      </Suspense>
    </>
  );
}
