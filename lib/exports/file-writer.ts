import 'server-only';
/**
 * Writes a job's CSV from its stored records: read from SQLite a batch at a time (keyset paging,
 * never an open cursor across awaits — the connection is shared by every request), written through
 * the streaming CSV writer to a temporary file, renamed into place when complete. Memory stays flat
 * however many records; a crash mid-write leaves only a temporary file, rewritten on resume.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TIMESTAMP_FIELDS, type CdrFieldKey } from '../cdr/fields';
import type { ExportJobRecord, ExportStore } from '../store/exports';
import { rezoneTimestamp, type Zone } from '../time/zones';
import { createCsvStream, toRow } from '../csv/csv';

const BATCH = 1000;

export function exportFilePath(dir: string, jobId: string): string {
  // Job ids are random UUIDs; the check keeps a crafted id from reaching outside the folder.
  if (!/^[A-Za-z0-9-]+$/.test(jobId)) throw new Error('invalid export id');
  return path.join(dir, `${jobId}.csv`);
}

function* records(store: ExportStore, jobId: string, columns: readonly CdrFieldKey[], tz: Zone, counter: { rows: number }) {
  const timestamps = columns.filter((c) => (TIMESTAMP_FIELDS as readonly string[]).includes(c));
  let after = 0;
  for (;;) {
    const batch = store.rowBatch(jobId, after, BATCH);
    if (batch.length === 0) return;
    for (const row of batch) {
      const record = JSON.parse(row.body) as Record<string, unknown>;
      for (const key of timestamps) {
        const v = record[key];
        if (typeof v === 'string') record[key] = rezoneTimestamp(v, tz);
      }
      counter.rows += 1;
      yield toRow(record, columns);
    }
    after = batch[batch.length - 1]!.id;
  }
}

/** Writes the file; returns its path, size and the number of records in it. */
export async function writeExportFile(store: ExportStore, job: ExportJobRecord, dir: string): Promise<{ path: string; bytes: number; rows: number }> {
  await fs.promises.mkdir(dir, { recursive: true });
  const target = exportFilePath(dir, job.id);
  const temporary = `${target}.tmp`;
  const counter = { rows: 0 };
  await pipeline(Readable.from(records(store, job.id, job.columns, job.query.tz, counter)), createCsvStream(job.columns), fs.createWriteStream(temporary));
  await fs.promises.rename(temporary, target);
  const { size } = await fs.promises.stat(target);
  return { path: target, bytes: size, rows: counter.rows };
}

/** Deletes a job's file (and a half-written one); absent files are fine. */
export async function deleteExportFile(dir: string, jobId: string): Promise<void> {
  const target = exportFilePath(dir, jobId);
  await Promise.all([fs.promises.rm(target, { force: true }), fs.promises.rm(`${target}.tmp`, { force: true })]);
}
