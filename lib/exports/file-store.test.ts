import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { forEachBackend } from '@/tests/support/backends';
import { EXPORT_FILE_CHUNK_BYTES } from './file-store';

const MB = 1024 * 1024;

/** A CSV-like file of exactly `total` bytes, in lines with Japanese text (characters straddle chunk edges). */
async function* lines(total: number): AsyncGenerator<string | Buffer> {
  let left = total;
  for (let i = 0; left > 0; i += 1) {
    const line = Buffer.from(`${i},819012345678,配達済み,${'x'.repeat(950)}\r\n`);
    const piece = line.subarray(0, Math.min(line.length, left));
    left -= piece.length;
    // Mostly text, as the CSV writer gives it; some bytes, as a byte stream would (and the cut last line).
    yield i % 3 === 0 || piece.length < line.length ? piece : piece.toString('utf8');
  }
}

async function digestOf(content: AsyncIterable<string | Buffer>): Promise<{ hash: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const piece of content) {
    const buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
    hash.update(buf);
    bytes += buf.length;
  }
  return { hash: hash.digest('hex'), bytes };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('the export file store', () => {
  forEachBackend((open) => {
    it('streams a 20 MB file back byte for byte, holding one chunk at a time', async () => {
      const { exportFiles } = await open();
      const size = 20 * MB + 12_345;
      const { bytes } = await exportFiles.write('job-1', lines(size));
      expect(bytes).toBe(size);
      expect(await exportFiles.size('job-1')).toBe(size);

      const stream = (await exportFiles.read('job-1'))!;
      const hash = createHash('sha256');
      const chunkSizes: number[] = [];
      let mostBuffered = 0;
      for await (const part of stream) {
        const buf = part as Buffer;
        chunkSizes.push(buf.length);
        hash.update(buf);
        mostBuffered = Math.max(mostBuffered, stream.readableLength);
        // A slow reader: the stream must not read ahead while it waits.
        if (chunkSizes.length % 10 === 0) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          expect(stream.readableLength).toBeLessThanOrEqual(EXPORT_FILE_CHUNK_BYTES);
        }
      }
      expect(hash.digest('hex')).toBe((await digestOf(lines(size))).hash);
      expect(chunkSizes).toHaveLength(Math.ceil(size / EXPORT_FILE_CHUNK_BYTES));
      expect(chunkSizes.slice(0, -1).every((n) => n === EXPORT_FILE_CHUNK_BYTES)).toBe(true);
      expect(chunkSizes.at(-1)).toBe(size % EXPORT_FILE_CHUNK_BYTES);
      // Never more than the chunk just handed out waits in the stream.
      expect(mostBuffered).toBeLessThanOrEqual(EXPORT_FILE_CHUNK_BYTES);
    });

    it('stores chunks of the fixed size whatever the pieces written', async () => {
      const { exportFiles, db } = await open();
      await exportFiles.write('job-1', lines(3 * EXPORT_FILE_CHUNK_BYTES + 10));
      const stored = await db
        .selectFrom('export_file_chunks')
        .select(['seq', 'data'])
        .where('job_id', '=', 'job-1')
        .orderBy('seq')
        .execute();
      expect(stored.map((c) => [c.seq, c.data.length])).toEqual([
        [0, EXPORT_FILE_CHUNK_BYTES],
        [1, EXPORT_FILE_CHUNK_BYTES],
        [2, EXPORT_FILE_CHUNK_BYTES],
        [3, 10],
      ]);
    });

    it('keeps an empty file and a small one, and replaces a file written again', async () => {
      const { exportFiles } = await open();
      await exportFiles.write('empty', []);
      expect(await exportFiles.size('empty')).toBe(0);
      expect(await readAll((await exportFiles.read('empty'))!)).toEqual(Buffer.alloc(0));

      await exportFiles.write('job', ['\uFEFFtrx_id,to_address\r\n', 'a,819012345678\r\n']);
      expect((await readAll((await exportFiles.read('job'))!)).toString('utf8')).toBe(
        '\uFEFFtrx_id,to_address\r\na,819012345678\r\n',
      );
      await exportFiles.write('job', ['b\r\n']);
      expect((await readAll((await exportFiles.read('job'))!)).toString('utf8')).toBe('b\r\n');
      expect(await exportFiles.size('job')).toBe(3);
    });

    it('has no file until the whole content is written, and none after a failed write', async () => {
      const { exportFiles } = await open();
      let sizeWhileWriting: number | null = -1;
      async function* failing() {
        yield 'x'.repeat(EXPORT_FILE_CHUNK_BYTES * 2);
        sizeWhileWriting = await exportFiles.size('job');
        throw new Error('the upstream went away');
      }
      await expect(exportFiles.write('job', failing())).rejects.toThrow('the upstream went away');
      expect(sizeWhileWriting).toBeNull();
      expect(await exportFiles.read('job')).toBeNull();
      expect(await exportFiles.size('job')).toBeNull();
    });

    it('deletes a file, and deleting an absent one is fine', async () => {
      const { exportFiles, db } = await open();
      await exportFiles.write('job', lines(EXPORT_FILE_CHUNK_BYTES + 1));
      await exportFiles.write('other', ['kept']);
      await exportFiles.delete('job');
      await exportFiles.delete('never-written');
      expect(await exportFiles.read('job')).toBeNull();
      expect(await db.selectFrom('export_file_chunks').select('seq').where('job_id', '=', 'job').execute()).toEqual([]);
      expect((await readAll((await exportFiles.read('other'))!)).toString()).toBe('kept');
    });

    it('fails the stream, not silently, when the file is deleted while it is read', async () => {
      const { exportFiles } = await open();
      await exportFiles.write('job', lines(3 * EXPORT_FILE_CHUNK_BYTES));
      const stream = (await exportFiles.read('job'))!;
      const read = (async () => {
        for await (const _ of stream) await exportFiles.delete('job');
      })();
      await expect(read).rejects.toThrow(/deleted or rewritten/);
    });

    it('serves a file written by one instance to another', async () => {
      const writer = await open();
      await writer.exportFiles.write('job', ['a,b\r\n']);
      await writer.close();
      const reader = await open();
      expect((await readAll((await reader.exportFiles.read('job'))!)).toString()).toBe('a,b\r\n');
    });
  });
});
