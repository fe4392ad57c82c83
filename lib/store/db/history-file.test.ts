import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { truncateHistoryLog } from './history-file';

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
