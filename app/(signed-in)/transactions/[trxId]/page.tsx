import type { Metadata } from 'next';
import { Suspense } from 'react';
import { trxIdProblem } from '@/lib/cdr/trx-id';
import { InvalidTrxId } from '@/components/transactions/invalid-trx-id';
import { TransactionDetailView } from '@/components/transactions/transaction-detail-view';

type Params = { trxId: string };

/** The id as typed; a malformed escape stays as it came and is refused as not-hex below. */
function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { trxId } = await params;
  return { title: `Transaction ${decoded(trxId)}` };
}

/** One transaction as a page a support person can paste into a ticket. */
export default async function TransactionPage({ params }: { params: Promise<Params> }) {
  const trxId = decoded((await params).trxId).trim();
  // A malformed id is refused here, before any request could spend a call on it.
  const problem = trxIdProblem(trxId);
  return problem ? (
    <InvalidTrxId value={trxId} problem={problem} />
  ) : (
    <Suspense>
      <TransactionDetailView trxId={trxId} />
    </Suspense>
  );
}
