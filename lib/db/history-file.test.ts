import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { attachHistoryFile, HISTORY_PAGE_BYTES, openHistoryFile, truncateHistoryLog } from './history-file';
import { HISTORY_SCHEMA } from './migrations/history-schema';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const logSize = (file: string) => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);

describe("the history file's checkpoint", () => {
  it("empties the history file's log only, never the store's attached beside it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-history-file-'));
    dirs.push(dir);
    const store = path.join(dir, 'dashboard.sqlite');
    const history = path.join(dir, 'history.sqlite');
    const db = new SqliteDatabase(history);
    db.pragma('journal_mode = WAL');
    db.prepare('attach database ? as store').run(store);
    db.pragma('store.journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('create table main.t (v text); create table store.s (v text)');
    db.prepare('insert into main.t values (?)').run('x'.repeat(10_000));
    db.prepare('insert into store.s values (?)').run('y'.repeat(10_000));
    const storeLog = logSize(store);
    expect(storeLog).toBeGreaterThan(0);
    expect(logSize(history)).toBeGreaterThan(0);

    db.exec(truncateHistoryLog('main'));
    expect(logSize(history)).toBe(0);
    // The store's log is the server's business (its own checkpoints): untouched here.
    expect(logSize(store)).toBe(storeLog);
    db.close();
  });
});

describe("the history file's pages", () => {
  const fresh = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-history-file-'));
    dirs.push(dir);
    return { dir, history: path.join(dir, 'history.sqlite') };
  };
  const pageSize = (file: string) => {
    const db = new SqliteDatabase(file, { readonly: true });
    try {
      return db.pragma('page_size', { simple: true });
    } finally {
      db.close();
    }
  };

  it(`are ${HISTORY_PAGE_BYTES} bytes in a file created now, by the writer or by the server's attach, whichever opens it first`, () => {
    const byWriter = fresh();
    const writer = openHistoryFile(byWriter.history);
    writer.exec('create table t (v text)');
    writer.close();
    expect(pageSize(byWriter.history)).toBe(HISTORY_PAGE_BYTES);

    const byServer = fresh();
    const server = new SqliteDatabase(path.join(byServer.dir, 'dashboard.sqlite'));
    attachHistoryFile(server, byServer.history);
    server.exec(`create table ${HISTORY_SCHEMA}.t (v text)`);
    server.close();
    expect(pageSize(byServer.history)).toBe(HISTORY_PAGE_BYTES);
  });

  it('stay as they were in a file created before, which keeps its records readable and writable', () => {
    const { history } = fresh();
    const old = new SqliteDatabase(history);
    old.pragma('journal_mode = WAL');
    old.exec("create table t (v text); insert into t values ('kept')");
    old.close();
    expect(pageSize(history)).toBe(4096);

    const writer = openHistoryFile(history);
    writer.prepare('insert into t values (?)').run('added');
    expect(writer.prepare('select v from t order by rowid').pluck().all()).toEqual(['kept', 'added']);
    writer.close();
    expect(pageSize(history)).toBe(4096);
  });
});
