import 'server-only';
/** A reconciliation's summary from its stored rows, read a batch at a time (./summary.ts). */
import type { ReconcileSummary } from './api';
import type { ReconcileJobStore } from './job-store';
import type { ReconcileJobRecord } from './job-row';
import { SummaryTally } from './summary';

const BATCH = 2_000;

export async function summarizeJob(
  store: Pick<ReconcileJobStore, 'rowBatch'>,
  job: Pick<ReconcileJobRecord, 'id' | 'expected' | 'tz'>,
): Promise<ReconcileSummary> {
  const tally = new SummaryTally(job.expected, job.tz);
  let after = 0;
  for (;;) {
    const batch = await store.rowBatch(job.id, after, BATCH);
    if (batch.length === 0) return tally.summary();
    for (const row of batch) tally.add(row);
    after = batch[batch.length - 1]!.row;
  }
}
