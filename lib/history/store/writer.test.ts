import { describe, expect, it } from 'vitest';
import { createHistoryWriter, type WriteBackend, type WriteOp } from './writer';

/** A backend that records the writes it is given and answers them as `answer` says. */
function recordingBackend(answer: (op: WriteOp, args: unknown[]) => unknown = () => 0) {
  const ran: string[] = [];
  const backend: WriteBackend = {
    async run(op, args) {
      ran.push(op === 'buildPack' ? `${op} ${String(args[1])}` : op);
      await new Promise((resolve) => setImmediate(resolve));
      const value = answer(op, args);
      if (value instanceof Error) throw value;
      return value;
    },
    warmUp: async () => undefined,
    close: async () => undefined,
  };
  return { backend, ran };
}

describe('the history writer', () => {
  it('runs writes one at a time in the order asked, then catches the text index up, then builds packs', async () => {
    let behind = 12_000;
    const { backend, ran } = recordingBackend((op) => {
      if (op !== 'indexPendingText') return 1;
      const indexed = Math.min(5_000, behind);
      behind -= indexed;
      return indexed;
    });
    const writer = createHistoryWriter(backend);
    writer.buildPackWhenIdle('s', '2026-11-01');
    const first = writer.addRecords('s', []);
    const second = writer.finishDay('s', '2026-11-01');
    writer.buildPackWhenIdle('s', '2026-11-01'); // asked twice, built once
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    await writer.idle();
    // The pack asked before any write waits for them: the first pack was taken while nothing else waited.
    expect(ran).toEqual([
      'buildPack 2026-11-01',
      'addRecords',
      'finishDay',
      'indexPendingText',
      'indexPendingText',
      'indexPendingText',
      'buildPack 2026-11-01',
    ]);
  });

  it('does not retry a failing text index forever: it waits for the next records', async () => {
    let failures = 0;
    const { backend, ran } = recordingBackend((op) =>
      op === 'indexPendingText' ? (failures++, new Error('disk full')) : 1,
    );
    const writer = createHistoryWriter(backend);
    await writer.addRecords('s', []);
    await writer.idle();
    expect(failures).toBe(1);
    await writer.addRecords('s', []);
    await writer.idle();
    expect(failures).toBe(2);
    expect(ran.filter((op) => op === 'addRecords')).toHaveLength(2);
  });

  it('fails a write with its error and goes on with the next', async () => {
    const { backend } = recordingBackend((op) => (op === 'deleteScope' ? new Error('locked') : 3));
    const writer = createHistoryWriter(backend);
    const failed = writer.deleteScope('s');
    const next = writer.addRecords('s', []);
    await expect(failed).rejects.toThrow('locked');
    expect(await next).toBe(3);
  });

  it('drops the packs of a deleted local history, and refuses writes once closed', async () => {
    const { backend, ran } = recordingBackend();
    const writer = createHistoryWriter(backend);
    const held = writer.addRecords('a', []);
    writer.buildPackWhenIdle('a', '2026-11-01');
    writer.buildPackWhenIdle('b', '2026-11-02');
    await writer.deleteScope('a');
    await held;
    await writer.idle();
    expect(ran.filter((op) => op.startsWith('buildPack'))).toEqual(['buildPack 2026-11-02']);
    await writer.close();
    await expect(writer.addRecords('a', [])).rejects.toThrow('closed');
  });
});
