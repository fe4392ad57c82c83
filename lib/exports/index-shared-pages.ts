import 'server-only';
/**
 * The trx_id index of the pages an export gave the dashboard's cache (what makes a record looked up
 * later cost no call), written once the export is done. Written with each page, it was the larger
 * part of an export's own time a page: trx_ids are random, so a page's records land on as many
 * pages of the index, each written again at every page's commit. Written here, many pages at a
 * time, each index page is written once a batch, and nobody waits for it: the file is ready.
 * Until it is written (or when the server stops before), such a record costs a lookup one call.
 */
import type { CachedPage, PageCacheStore } from '../cache/server';
import type { ExportJobRecord } from './job-row';
import { windowBase } from './job-record';

/** Pages whose records go into the index in one transaction (about 2,000 records). */
export const PAGES_PER_INDEX_WRITE = 20;

/**
 * Indexes the records of every page the job read from the upstream or the cache (not those of the
 * local history, which has its own index), as the cache holds them now, until `signal` aborts (the
 * server stopping); answers how many pages.
 */
export async function indexSharedPages(
  cache: Pick<PageCacheStore, 'getPage' | 'indexPageRecords'>,
  job: ExportJobRecord,
  signal?: AbortSignal,
): Promise<number> {
  let batch: CachedPage[] = [];
  let indexed = 0;
  const write = async () => {
    await cache.indexPageRecords(job.account, batch);
    indexed += batch.length;
    batch = [];
    // Requests go first between two batches.
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (const w of job.windows) {
    // A split window's pages are its narrower windows'; a local one's were never the cache's.
    if (w.state !== 'done' || w.local) continue;
    const key = windowBase(job, w).key;
    for (let page = 1; page <= w.pagesDone; page++) {
      // The server stops: what is not indexed costs a lookup one call, nothing worse.
      if (signal?.aborted) return indexed;
      const cached = await cache.getPage(job.account, key, job.query.sortOrder, page);
      if (cached) batch.push(cached);
      if (batch.length >= PAGES_PER_INDEX_WRITE) await write();
    }
  }
  if (batch.length > 0) await write();
  return indexed;
}
