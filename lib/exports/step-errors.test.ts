/**
 * An export whose page size the upstream refuses reads on at the fallback from the record it
 * stopped at (./step-errors.ts resizeJob): no page already read is asked for again.
 */
import { describe, expect, it } from 'vitest';
import type { ExportJobRecord, StoredWindow } from './job-row';
import { resizeJob } from './step-errors';

const window = (w: Partial<StoredWindow>): StoredWindow => ({
  id: 1,
  from: 0,
  to: 1,
  state: 'pending',
  totalFound: null,
  pagesDone: 0,
  pagesTotal: null,
  received: 0,
  ...w,
});

describe('an export read on at a smaller page size', () => {
  it('counts each window’s pages at the new size from the record it stopped at', () => {
    const job = {
      pageSize: 1000,
      windows: [
        window({ id: 1, state: 'done', totalFound: 1500, pagesDone: 2, pagesTotal: 2, received: 1500 }),
        window({ id: 2, totalFound: 4321, pagesDone: 3, pagesTotal: 5, received: 3000 }),
        window({ id: 3 }),
        // Deeper than 1,000 pages of 100: read afresh (its first page splits it).
        window({ id: 4, totalFound: 250_000, pagesDone: 1, pagesTotal: 250, received: 1000 }),
      ],
    } as unknown as ExportJobRecord;
    resizeJob(job, 100);
    expect(job.pageSize).toBe(100);
    expect(job.windows.map((w) => [w.pagesDone, w.pagesTotal, w.received])).toEqual([
      [2, 2, 1500],
      [30, 44, 3000],
      [0, null, 0],
      [0, null, 0],
    ]);
  });
});
