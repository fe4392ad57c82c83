import 'server-only';
/**
 * The last step of an export: every window read, write the file, check its count against what the
 * upstream reported, and mark the job done with its retention. The stored records go only after
 * the job says done, so a crash in between simply writes the file again. Then, with the file ready,
 * the records of the pages it gave the dashboard's cache are indexed by trx_id.
 */
import { msg } from '../i18n/message';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { ExportFileStore } from './file-store';
import type { ExportJobStore } from './job-store';
import type { ExportJobRecord } from './job-row';
import type { PageCacheStore } from '../cache/server';
import { checkCount } from './count-check';
import { indexSharedPages } from './index-shared-pages';
import { writeExportFile } from './file-writer';
import { leafWindows, retentionEnd, windowLabel } from './job-record';

export interface FinishDeps {
  store: ExportJobStore;
  /** The dashboard's cache: the records of the pages the job gave it are indexed once it is done. */
  cache: Pick<PageCacheStore, 'getPage' | 'indexPageRecords'>;
  /** Where finished files go (the database: every instance can serve them). */
  files: ExportFileStore;
  config: Pick<Config, 'EXPORT_RETENTION_DAYS'>;
  now(): number;
  log: Logger;
  /** Runs the file's writing as work a person waits for (lib/background/foreground-work.ts); absent: as is. */
  asForeground?: <T>(work: () => Promise<T>) => Promise<T>;
}

export async function finishJob(deps: FinishDeps, job: ExportJobRecord, signal?: AbortSignal): Promise<void> {
  const write = () => writeExportFile(deps.store, deps.files, job);
  const file = await (deps.asForeground ? deps.asForeground(write) : write());
  const current = await deps.store.getJob(job.id);
  if (!current || current.state === 'cancelled') {
    await deps.files.delete(job.id);
    return;
  }
  const { check, warnings } = checkCount({
    windows: leafWindows(current).map((w) => ({
      totalFound: w.totalFound ?? 0,
      received: w.received,
      label: windowLabel(w, current.query.tz),
    })),
    written: file.rows,
    duplicates: current.duplicates,
    overlapDuplicates: current.overlapDuplicates,
  });
  if (current.duplicates > 0) {
    warnings.unshift(msg('exports.warning.duplicates', { count: current.duplicates }));
  }
  const now = deps.now();
  Object.assign(current, {
    state: 'done',
    finishedAt: now,
    updatedAt: now,
    expiresAt: retentionEnd(now, deps.config),
    waitingUntil: null,
    message: null,
    countCheck: check,
    fileBytes: file.bytes,
    warnings: [...current.warnings, ...warnings],
  } satisfies Partial<ExportJobRecord>);
  await deps.store.saveJob(current);
  await deps.store.deleteRows(current.id);
  deps.log.info('export.done', {
    job: current.id,
    account: current.account,
    records: file.rows,
    calls: current.callsSpent,
    cached: current.pagesCached,
    countOk: check.ok,
  });
  // The file is ready: now the dashboard's index of the records it was given (index-shared-pages.ts).
  await indexSharedPages(deps.cache, current, signal).catch((err: unknown) =>
    deps.log.warn('export.index_failed', { job: current.id, error: err instanceof Error ? err.message : String(err) }),
  );
}
