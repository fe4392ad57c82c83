import 'server-only';
/**
 * Finished export files, kept in the database in numbered chunks, so every instance can serve any
 * export without a shared folder. A file is written chunk by chunk from a stream of text and read
 * back as a stream that holds one chunk at a time: memory does not grow with the file.
 *
 * A file exists once its row in `export_files` does, and that row is written last: a crash while
 * writing leaves only orphan chunks, which the next write for the job clears (like a temporary file
 * renamed into place). The chunks are not written in one transaction on purpose: the content is
 * usually read from the same database while it is written, and on SQLite an open write
 * transaction would hold the one connection that read needs.
 */
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Bytes per stored chunk: large enough for few rows, small enough to hold one in memory. */
export const EXPORT_FILE_CHUNK_BYTES = 256 * 1024;

export interface ExportFileStore {
  /** Stores the job's file from `content` (replacing any it had); returns its size in bytes. */
  write(
    jobId: string,
    content: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  ): Promise<{ bytes: number }>;
  /** The finished file as a byte stream reading one chunk at a time, or null when there is none. */
  read(jobId: string): Promise<Readable | null>;
  /** The finished file's size in bytes, or null when there is none. */
  size(jobId: string): Promise<number | null>;
  /** Deletes the job's file (finished or half-written); an absent file is fine. */
  delete(jobId: string): Promise<void>;
}

export function createExportFileStore(db: Kysely<Database>, options: { chunkBytes?: number } = {}): ExportFileStore {
  const chunkBytes = options.chunkBytes ?? EXPORT_FILE_CHUNK_BYTES;

  const remove = (jobId: string) =>
    db.transaction().execute(async (trx) => {
      await trx.deleteFrom('export_files').where('job_id', '=', jobId).execute();
      await trx.deleteFrom('export_file_chunks').where('job_id', '=', jobId).execute();
    });

  return {
    async write(jobId, content) {
      await remove(jobId);
      let seq = 0;
      let bytes = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const store = async (data: Buffer) => {
        await db.insertInto('export_file_chunks').values({ job_id: jobId, seq, data }).execute();
        seq += 1;
      };
      try {
        for await (const piece of content) {
          // A copy: the caller may reuse its buffer once it hands the next piece.
          let buf = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece);
          bytes += buf.length;
          while (pendingBytes + buf.length >= chunkBytes) {
            const take = chunkBytes - pendingBytes;
            pending.push(buf.subarray(0, take));
            await store(Buffer.concat(pending, chunkBytes));
            pending = [];
            pendingBytes = 0;
            buf = buf.subarray(take);
          }
          if (buf.length > 0) {
            pending.push(buf);
            pendingBytes += buf.length;
          }
        }
        if (pendingBytes > 0) await store(Buffer.concat(pending, pendingBytes));
        await db
          .insertInto('export_files')
          .values({ job_id: jobId, bytes, chunks: seq, created_at: Date.now() })
          .execute();
      } catch (err) {
        await remove(jobId).catch(() => undefined);
        throw err;
      }
      return { bytes };
    },

    async read(jobId) {
      const file = await db.selectFrom('export_files').select('chunks').where('job_id', '=', jobId).executeTakeFirst();
      if (!file) return null;
      let seq = 0;
      return new Readable({
        // Asks for the next chunk only once the one before has been taken by the reader.
        highWaterMark: 1,
        read() {
          if (seq >= file.chunks) {
            this.push(null);
            return;
          }
          const at = seq;
          seq += 1;
          db.selectFrom('export_file_chunks')
            .select('data')
            .where('job_id', '=', jobId)
            .where('seq', '=', at)
            .executeTakeFirst()
            .then(
              (row) => {
                if (this.destroyed) return;
                if (!row) this.destroy(new Error('the export file was deleted or rewritten while it was read'));
                else this.push(row.data);
              },
              (err: unknown) => this.destroy(err instanceof Error ? err : new Error(String(err))),
            );
        },
      });
    },

    async size(jobId) {
      const row = await db.selectFrom('export_files').select('bytes').where('job_id', '=', jobId).executeTakeFirst();
      return row?.bytes ?? null;
    },

    async delete(jobId) {
      await remove(jobId);
    },
  };
}
