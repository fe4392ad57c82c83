import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { cdrSchema } from '../cdr/schema';
import { historyRow } from '../cdr/record-columns';
import { scopeOf } from '../history/scope';
import { sampleCdr } from '../upstream/test-fixtures';
import { openStore } from '../root/open-store';
import { LOCK_FILE_NAME } from './data-dir-lock';
import { stagedPage } from '../history/store/staged-page';
import { historyFileOf } from './history-file';
import { SQLITE_FILE_NAME } from './sqlite-file';

const folders: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-sqlite-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const f of folders.splice(0)) fs.rmSync(f, { recursive: true, force: true });
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const PHONE = '819087654321';
const BODY = 'Your one-time code is 482913';
const PHONE_2 = '819011112222';
const BODY_2 = 'お荷物のお届け予定: 明日午前';

describe('the SQLite file', () => {
  it('and its folder are readable by the server’s user only, whatever the umask', async () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const previous = process.umask(0o000);
    try {
      const store = await openStore({ dataDir });
      await store.ledger.recordCall({ account: 'demo', at: Date.now(), kind: 'query', cls: 'interactive' }); // so the -wal and -shm files exist
      const file = path.join(dataDir, SQLITE_FILE_NAME);
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect(fs.existsSync(`${file}-shm`)).toBe(true);
      for (const f of [file, `${file}-wal`, `${file}-shm`, path.join(dataDir, LOCK_FILE_NAME)])
        expect([f, mode(f).toString(8)]).toEqual([f, '600']);
      // The local history's file too, and its companions once its writer has written.
      const history = historyFileOf(dataDir);
      await store.history.addResultRecords(scopeOf({ apiKey: 'demo', enterpriseId: null }).key, [
        historyRow(cdrSchema.parse(sampleCdr()))!,
      ]);
      for (const f of [history, `${history}-wal`, `${history}-shm`])
        expect([f, mode(f).toString(8)]).toEqual([f, '600']);
      expect(mode(dataDir).toString(8)).toBe('700');
      expect(mode(path.dirname(dataDir)).toString(8)).toBe('700');
      await store.close();
    } finally {
      process.umask(previous);
    }
  });

  it('tightens a store file an earlier version left readable to others', async () => {
    const dataDir = path.join(tempDir(), 'data');
    fs.mkdirSync(dataDir);
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    const old = new SqliteDatabase(file);
    old.pragma('journal_mode = WAL');
    old.exec('create table t (x)');
    fs.chmodSync(file, 0o644);
    fs.chmodSync(`${file}-wal`, 0o644);
    const store = await openStore({ dataDir });
    expect([mode(file), mode(`${file}-wal`)].map((m) => m.toString(8))).toEqual(['600', '600']);
    old.close();
    await store.close();
  });

  it('overwrites a deleted phone number and message body instead of leaving them in the file', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    const store = await openStore({ dataDir });
    const cdr = cdrSchema.parse(sampleCdr({ trx_id: 'a'.repeat(32), to_address: PHONE, message_body: BODY }));
    await store.cache.putRecords('demo', [cdr], 0, 1000);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    // The test can see them while they are stored...
    expect(fs.readFileSync(file).includes(PHONE)).toBe(true);
    expect(fs.readFileSync(file).includes(BODY)).toBe(true);

    await store.cache.prune(2000);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    expect(await store.cache.getRecord('demo', cdr.trx_id)).toBeNull();
    // ...and no longer in any byte of the file or its log once they are deleted.
    for (const f of [file, `${file}-wal`]) {
      const bytes = fs.existsSync(f) ? fs.readFileSync(f) : Buffer.alloc(0);
      expect(bytes.includes(PHONE)).toBe(false);
      expect(bytes.includes(BODY)).toBe(false);
    }
    await store.close();
  });

  it('keeps no byte of a deleted local history: staged pages, records, bodies, the text index and the logs, in both files', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const files = [path.join(dataDir, SQLITE_FILE_NAME), historyFileOf(dataDir)];
    const store = await openStore({ dataDir });
    const scope = scopeOf({ apiKey: 'demo', enterpriseId: null }).key;
    const cdr = cdrSchema.parse(sampleCdr({ trx_id: 'b'.repeat(32), to_address: PHONE, message_body: BODY }));
    const day = {
      day: '2026-11-01',
      state: 'complete' as const,
      progress: {},
      records: 0,
      calls: 1,
      updatedAt: 0,
      completedAt: 0,
    };
    await store.history.commitDayPage(scope, day, [historyRow(cdr)!], []);
    // A day being copied (the copy is on): its pages staged as they came, in the store's own file.
    await store.history.putSettings({
      scope,
      apiKey: 'demo',
      enterpriseId: null,
      enabled: true,
      sinceDay: '2026-10-01',
      keepSignedOut: false,
      sealedSecret: null,
      createdAt: 0,
      updatedAt: 0,
    });
    const staged = cdrSchema.parse(sampleCdr({ trx_id: 'c'.repeat(32), to_address: PHONE_2, message_body: BODY_2 }));
    await store.history.stageDayPage(scope, { ...day, day: '2026-11-02', state: 'syncing' }, stagedPage([staged]));
    await store.history.settled();
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    // The copied record's JSON is compressed in a block: its bytes stand for its body.
    const block = await store.db.selectFrom('history_body_blocks').select('data').executeTakeFirstOrThrow();
    const compressed = Buffer.from(block.data).subarray(1, 33);
    // On disk: in a file or its log (a checkpoint waits for no reader).
    const held = (bytes: string | Buffer) =>
      files.flatMap((f) => [f, `${f}-wal`]).some((f) => fs.existsSync(f) && fs.readFileSync(f).includes(bytes));
    expect([held(PHONE), held(compressed), held(PHONE_2), held(BODY_2)]).toEqual([true, true, true, true]);
    expect(await store.db.selectFrom('history_text_months').selectAll().execute()).toHaveLength(1);

    await store.history.deleteScope(scope);
    // Its text index went with it.
    expect(await store.db.selectFrom('history_text_months').selectAll().execute()).toEqual([]);
    for (const f of files.flatMap((file) => [file, `${file}-wal`])) {
      const bytes = fs.existsSync(f) ? fs.readFileSync(f) : Buffer.alloc(0);
      for (const secret of [PHONE, BODY, PHONE_2, BODY_2, compressed])
        expect([f, bytes.includes(secret)]).toEqual([f, false]);
    }
    await store.close();
  });

  it('(without secure_delete, the same delete would leave the number in the file)', () => {
    const file = path.join(tempDir(), 'plain.sqlite');
    const db = new SqliteDatabase(file);
    db.pragma('journal_mode = WAL');
    db.pragma('secure_delete = OFF');
    db.exec('create table t (body text)');
    db.prepare('insert into t values (?)').run(JSON.stringify({ to_address: PHONE }));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('delete from t');
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(fs.readFileSync(file).includes(PHONE)).toBe(true);
    db.close();
  });
});
