import type { Metadata } from 'next';
import { Suspense } from 'react';
import { requirePageSession } from '@/lib/auth/session';
import { trxIdProblem } from '@/lib/cdr/trx-id';
import { pathWithQuery } from '@/lib/ui/page-path';
import { AppShell } from '@/components/shell/AppShell';
import { InvalidTrxId } from '@/components/transactions/InvalidTrxId';
import { TransactionDetailView } from '@/components/transactions/TransactionDetailView';

type Params = { trxId: string };

/** The id as typed; a malformed escape stays as it came and is refused as not-hex below. */
function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
type SearchParams = Record<string, string | string[] | undefined>;

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { trxId } = await params;
  return { title: `Transaction ${decoded(trxId)}` };
}

/** One transaction as a page a support person can paste into a ticket. */
export default async function TransactionPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<SearchParams> }) {
  const { trxId: raw } = await params;
  const trxId = decoded(raw).trim();
  const session = await requirePageSession(pathWithQuery(`/transactions/${raw}`, await searchParams));
  // A malformed id is refused here, before any request could spend a call on it.
  const problem = trxIdProblem(trxId);
  return (
    <AppShell account={session}>
      {problem ? (
        <InvalidTrxId value={trxId} problem={problem} />
      ) : (
        <Suspense>
          <TransactionDetailView trxId={trxId} />
        </Suspense>
      )}
    </AppShell>
  );
}
