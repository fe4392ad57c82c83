import 'server-only';
/**
 * Writes a job's CSV from its stored records into the file store (in the database, so every
 * instance can serve it): the records are read a batch at a time (keyset paging, never an open
 * cursor across awaits) and each batch written as one part of the CSV, so memory stays flat however
 * many records. A crash mid-write leaves only orphan chunks, cleared when the file is written again.
 */
import { TIMESTAMP_FIELDS, type CdrFieldKey } from '../cdr/fields';
import { csvHeader, csvRows, toRow } from '../csv/csv';
import type { ExportFileStore, ExportJobStore } from '../store';
import type { ExportJobRecord } from '../store/export-job-record';
import { rezoneTimestamp, type Zone } from '../time/zones';

/** Records per turn of the event loop (about 10 ms of work each). */
const BATCH = 250;

/** The file's parts: its header, then the CSV of each batch of stored records. */
async function* csvParts(store: ExportJobStore, jobId: string, columns: readonly CdrFieldKey[], tz: Zone, excel: boolean, counter: { rows: number }) {
  const timestamps = columns.filter((c) => (TIMESTAMP_FIELDS as readonly string[]).includes(c));
  yield csvHeader(columns);
  let after = 0;
  for (;;) {
    const batch = await store.rowBatch(jobId, after, BATCH);
    if (batch.length === 0) return;
    const rows = batch.map((row) => {
      const record = JSON.parse(row.body) as Record<string, unknown>;
      for (const key of timestamps) {
        const v = record[key];
        if (typeof v === 'string') record[key] = rezoneTimestamp(v, tz);
      }
      return toRow(record, columns);
    });
    counter.rows += rows.length;
    yield csvRows(rows, columns, excel);
    after = batch[batch.length - 1]!.id;
    // SQLite answers synchronously under its promises, so without this the whole file would be
    // written in one turn of the event loop (seconds for a large export, with every request waiting).
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Writes the job's file; returns its size and the number of records in it. */
export async function writeExportFile(store: ExportJobStore, files: ExportFileStore, job: ExportJobRecord): Promise<{ bytes: number; rows: number }> {
  const counter = { rows: 0 };
  const { bytes } = await files.write(job.id, csvParts(store, job.id, job.columns, job.query.tz, job.excel === true, counter));
  return { bytes, rows: counter.rows };
}
