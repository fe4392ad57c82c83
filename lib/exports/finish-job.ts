import 'server-only';
/**
 * The last step of an export: every window read, write the file, check its count against what the
 * upstream reported, and mark the job done with its retention. The stored records go only after
 * the job says done, so a crash in between simply writes the file again.
 */
import type { ExportJobRecord } from '../store/exports';
import { checkCount } from './count-check';
import { deleteExportFile, writeExportFile } from './file-writer';
import { leafWindows, windowLabel } from './job-record';
import type { StepDeps } from './job-step';

export async function finishJob(deps: Pick<StepDeps, 'store' | 'exportsDir' | 'now' | 'config' | 'log'>, job: ExportJobRecord): Promise<void> {
  const file = await writeExportFile(deps.store, job, deps.exportsDir);
  const current = deps.store.getJob(job.id);
  if (!current || current.state === 'cancelled') {
    await deleteExportFile(deps.exportsDir, job.id);
    return;
  }
  const { check, warnings } = checkCount({
    windows: leafWindows(current).map((w) => ({ totalFound: w.totalFound ?? 0, received: w.received, label: windowLabel(w, current.query.tz) })),
    written: file.rows,
    duplicates: current.duplicates,
    overlapDuplicates: current.overlapDuplicates,
  });
  if (current.duplicates > 0) {
    warnings.unshift(`${current.duplicates.toLocaleString('en-US')} records came more than once (window boundaries or pages that shifted) and are written once.`);
  }
  const now = deps.now();
  Object.assign(current, {
    state: 'done',
    finishedAt: now,
    updatedAt: now,
    expiresAt: now + deps.config.EXPORT_RETENTION_DAYS * 86_400_000,
    waitingUntil: null,
    message: null,
    countCheck: check,
    fileBytes: file.bytes,
    warnings: [...current.warnings, ...warnings],
  } satisfies Partial<ExportJobRecord>);
  deps.store.saveJob(current);
  deps.store.deleteRows(current.id);
  deps.log.info('export.done', { job: current.id, account: current.account, records: file.rows, calls: current.callsSpent, cached: current.pagesCached, countOk: check.ok });
}
