import 'server-only';
/**
 * A job's CSV: each record is made into its line of the file as it is stored (storedRows: the job's
 * columns, timestamps in its zone, for Excel if asked), and the file is those lines in the order
 * they were stored, after its header, written into the file store (in the database, so every
 * instance can serve it). Formatting a record once, when its page comes, leaves the end of an export
 * only the copying: no second parse of every record. The rows are read a batch at a time (keyset
 * paging, never an open cursor across awaits) and each batch written as one part, so memory stays
 * flat however many records. A crash mid-write leaves only orphan chunks, cleared when the file is
 * written again.
 *
 * A job without `rowFormat` stored each record as the JSON of its columns (an earlier version made
 * it, or an instance of that version still running in a rolling upgrade wrote its pages): those
 * lines are made here, at the end.
 */
import { TIMESTAMP_FIELDS, type CdrFieldKey } from '../cdr/fields';
import { receivedMs } from '../cdr/record-columns';
import type { Cdr } from '../cdr/schema';
import { csvHeader, csvLineWriter } from '../csv/csv';
import type { ExportFileStore } from './file-store';
import type { ExportJobStore } from './job-store';
import type { ExportJobRecord, StoredRow } from './job-row';
import { rezoneTimestamp } from '../time/zones';
import { maskRecord } from '../team';

/** Records per turn of the event loop. */
const BATCH = 250;

/**
 * A record's line of the job's file: its columns, its timestamps in the job's zone; for a job of a
 * role that sees personal data masked, the record through the masking rule first (every line, the
 * older rows made at the end included).
 */
function lineMaker(job: ExportJobRecord): (record: Readonly<Record<string, unknown>>) => string {
  const rezone = (v: unknown) => (typeof v === 'string' ? rezoneTimestamp(v, job.query.tz) : v);
  const rewrites = Object.fromEntries(
    job.columns.filter((c) => (TIMESTAMP_FIELDS as readonly string[]).includes(c)).map((c) => [c, rezone]),
  );
  const line = csvLineWriter(job.columns, job.excel === true, rewrites);
  return job.masked ? (record) => line(maskRecord(record)) : line;
}

/** The job's rows for records just read: trx_id (for de-duplication), received time, and what the file needs of it. */
export function storedRows(job: ExportJobRecord, cdrs: readonly Cdr[]): StoredRow[] {
  const line = job.rowFormat === 'csv-line' ? lineMaker(job) : jsonOfColumns(job.columns, job.masked === true);
  return cdrs.map((cdr) => ({
    trxId: cdr.trx_id.toLowerCase(),
    receivedMs: receivedMs(cdr),
    body: line(cdr as Record<string, unknown>),
  }));
}

/** The row of a job made before `rowFormat`: only its columns, as JSON (masked for a masked job: nothing is stored in clear for it). */
function jsonOfColumns(columns: readonly CdrFieldKey[], masked = false): (record: Record<string, unknown>) => string {
  return (record) => {
    const source = masked ? maskRecord(record) : record;
    const picked: Record<string, unknown> = {};
    for (const key of columns) picked[key] = source[key];
    return JSON.stringify(picked);
  };
}

/**
 * Whether a stored row holds the JSON of the record's columns rather than its line. A line never
 * starts with `{"`: a cell holding a quote is written quoted, so it starts with `"`. A job made now
 * can hold such rows too: pages an instance of the version before stored, still running during a
 * rolling upgrade.
 */
const isJsonRow = (body: string) => body.startsWith('{"');

/** The file's parts: its header, then the lines of each batch of stored records. */
async function* csvParts(store: ExportJobStore, job: ExportJobRecord, counter: { rows: number }) {
  const line = lineMaker(job);
  yield csvHeader(job.columns);
  let after = 0;
  for (;;) {
    const batch = await store.rowBatch(job.id, after, BATCH);
    if (batch.length === 0) return;
    counter.rows += batch.length;
    yield batch
      .map((row) =>
        job.rowFormat !== 'csv-line' || isJsonRow(row.body)
          ? line(JSON.parse(row.body) as Record<string, unknown>)
          : row.body,
      )
      .join('');
    after = batch[batch.length - 1]!.id;
    // SQLite answers synchronously under its promises, so without this the whole file would be
    // written in one turn of the event loop (seconds for a large export, with every request waiting).
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Writes the job's file; returns its size and the number of records in it. */
export async function writeExportFile(
  store: ExportJobStore,
  files: ExportFileStore,
  job: ExportJobRecord,
): Promise<{ bytes: number; rows: number }> {
  const counter = { rows: 0 };
  const { bytes } = await files.write(job.id, csvParts(store, job, counter));
  return { bytes, rows: counter.rows };
}
