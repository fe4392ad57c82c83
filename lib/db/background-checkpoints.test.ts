import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAIN_AUTOCHECKPOINT_PAGES,
  startBackgroundCheckpoints,
  type BackgroundCheckpoints,
} from './background-checkpoints';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function database(): { db: SqliteDatabase.Database; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpoints-'));
  const file = path.join(dir, 'dashboard.sqlite');
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table t (body text)');
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanup.push(() => {
    if (db.open) db.close();
  });
  return { db, file };
}

async function started(db: SqliteDatabase.Database, file: string, driver?: string): Promise<BackgroundCheckpoints> {
  const checkpoints = await startBackgroundCheckpoints(db, file, { everyMs: 20, ...(driver ? { driver } : {}) });
  cleanup.push(() => checkpoints.stop());
  return checkpoints;
}

/** Writes about `mb` MB in transactions of 256 KB, a few milliseconds apart, as an export's pages come. */
async function write(db: SqliteDatabase.Database, mb: number): Promise<void> {
  const insert = db.prepare('insert into t values (?)');
  const body = 'x'.repeat(1024);
  const page = db.transaction(() => {
    for (let i = 0; i < 256; i++) insert.run(body);
  });
  for (let i = 0; i < mb * 4; i++) {
    page();
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('checkpoints in the background', () => {
  it('copy the log into the database file while the main connection only appends to it', async () => {
    const { db, file } = database();
    await started(db, file);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(MAIN_AUTOCHECKPOINT_PAGES);
    const before = fs.statSync(file).size;
    // 24 MB: six times what the main connection would have checkpointed by itself, less than it does now.
    await write(db, 24);
    await until(() => fs.statSync(file).size - before > 23 * 1024 * 1024);
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 24 * 4 * 256 });
  });

  it('leave the checkpoints to the main connection when the worker cannot start', async () => {
    const { db, file } = database();
    db.pragma(`wal_autocheckpoint = ${MAIN_AUTOCHECKPOINT_PAGES}`);
    await started(db, file, '/nowhere/better-sqlite3.js');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('stop before the database closes, leaving it whole', async () => {
    const { db, file } = database();
    const checkpoints = await started(db, file);
    await write(db, 2);
    await checkpoints.stop();
    db.close();
    const reopened = new SqliteDatabase(file, { readonly: true });
    expect(reopened.prepare('select count(*) as n from t').get()).toEqual({ n: 2 * 4 * 256 });
    reopened.close();
  });
});
