import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Suspense } from 'react';
import { decodedOrAsIs, normaliseTrxId, trxIdProblem } from '@/lib/lookup';
import { openedFromAnotherSite } from '@/lib/root/page-intent';
import { InvalidTrxId } from '@/components/search/invalid-trx-id';
import { TransactionDetailView } from '@/components/search/transaction-detail-view';
import { RoleNeeded } from '@/components/team/role-needed';
import { pageAllows } from '@/lib/root/page-role';
import { recheckPageSession } from '@/lib/root/page-session';

type Params = { trxId: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { trxId } = await params;
  return { title: (await getTranslations('pages'))('transaction', { trxId: decodedOrAsIs(trxId) }) };
}

/**
 * One transaction as a page a support person can paste into a ticket. Opened from another site's
 * link, it waits for the person to ask (a lookup the dashboard has not seen costs a call).
 */
export default async function TransactionPage({ params }: { params: Promise<Params> }) {
  await recheckPageSession();
  const { role, allowed } = await pageAllows('support');
  if (!allowed) return <RoleNeeded page="transactions" needed="support" yours={role} />;
  const typed = decodedOrAsIs((await params).trxId).trim();
  // A malformed id is refused here, before any request could spend a call on it.
  const problem = trxIdProblem(typed);
  return problem ? (
    <InvalidTrxId value={typed} problem={problem} />
  ) : (
    <Suspense>
      <TransactionDetailView trxId={normaliseTrxId(typed)} heldLink={await openedFromAnotherSite()} />
    </Suspense>
  );
}
