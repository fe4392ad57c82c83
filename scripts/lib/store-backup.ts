/**
 * Backing up and restoring the embedded store: both SQLite files of DATA_DIR — `dashboard.sqlite`
 * (sessions, ledger, cache, export jobs and their files, the local history's days and settings) and
 * `history.sqlite` (the local history's records) — in one archive (tar: a manifest and the two files).
 *
 * Backup runs beside a running server. Each file is copied with SQLite's `VACUUM INTO`, which reads
 * one snapshot of the file while the server goes on writing (the page-by-page backup API starts over
 * each time another process writes, and a busy server writes every second). The store's file is
 * copied before the history's: the server writes a day's records into the history file before it
 * marks the day complete in the store's, so every day the copy calls complete has its records in
 * the copy too (records of a day still being built are added again, once each, when it is built).
 *
 * Restore refuses while a server holds the data folder (its lock, lib/db/data-dir-lock.ts), and
 * holds the lock itself meanwhile, so none starts half-way. The files it replaces are moved aside,
 * not deleted: putting them back undoes the restore.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { DataDirInUseError, lockDataDir } from '../../lib/db/data-dir-lock';
import { historyFileOf } from '../../lib/db/history-file';
import { migrationsFor } from '../../lib/db/migrations';
import { SQLITE_FILE_NAME, sqliteFileOf } from '../../lib/db/sqlite-file';

export const MANIFEST = 'manifest.json';
const FORMAT = 'sms-dashboard-backup/1';
const HISTORY_FILE = path.basename(historyFileOf('/'));
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

interface Manifest {
  format: string;
  createdAt: string;
  files: { name: string; bytes: number }[];
  migrations: string[];
}

/** A failure the operator can act on: printed as it is, exit code 1. */
export class BackupError extends Error {
  override name = 'BackupError';
}

function vacuumInto(source: string, target: string): void {
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    db.prepare('vacuum into ?').run(target);
  } finally {
    db.close();
  }
}

function appliedMigrations(file: string): string[] {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
}

/** Writes `archive` (mode 0600) from the store in `dataDir`, while a server may be using it. */
export function backupSqlite(dataDir: string, archive: string): Manifest {
  const store = sqliteFileOf(dataDir);
  if (!fs.existsSync(store))
    throw new BackupError(
      `There is no store to back up in ${dataDir} (no ${SQLITE_FILE_NAME}). Set DATA_DIR to the data folder the dashboard uses.`,
    );
  const target = path.resolve(archive);
  if (fs.existsSync(target)) throw new BackupError(`${target} exists already: give a new file name.`);
  // Beside the archive: the finished archive is renamed into place, never seen half-written.
  const work = fs.mkdtempSync(path.join(path.dirname(target), '.sms-backup-'));
  fs.chmodSync(work, 0o700);
  try {
    vacuumInto(store, path.join(work, SQLITE_FILE_NAME));
    const files = [SQLITE_FILE_NAME];
    if (fs.existsSync(historyFileOf(dataDir))) {
      vacuumInto(historyFileOf(dataDir), path.join(work, HISTORY_FILE));
      files.push(HISTORY_FILE);
    }
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      files: files.map((name) => ({ name, bytes: fs.statSync(path.join(work, name)).size })),
      migrations: appliedMigrations(path.join(work, SQLITE_FILE_NAME)),
    };
    fs.writeFileSync(path.join(work, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    for (const name of files) fs.chmodSync(path.join(work, name), 0o600);
    const partial = `${target}.partial`;
    execFileSync('tar', ['-cf', partial, '-C', work, MANIFEST, ...files]);
    // It holds phone numbers and message bodies: readable by this user only.
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
    return manifest;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export interface Restored {
  manifest: Manifest;
  /** Where the files it replaced were moved (null: there were none). */
  replacedTo: string | null;
}

/** Puts the store of `archive` into `dataDir`, which no server may be using. */
export function restoreSqlite(dataDir: string, archive: string): Restored {
  const source = path.resolve(archive);
  if (!fs.existsSync(source)) throw new BackupError(`There is no backup at ${source}.`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let lock;
  try {
    lock = lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError)
      throw new BackupError(
        `A dashboard is running on ${dataDir} (it holds the data folder). Stop it (every process using this folder), then restore again. Nothing was changed.`,
      );
    throw err;
  }
  const work = fs.mkdtempSync(path.join(dataDir, '.sms-restore-'));
  fs.chmodSync(work, 0o700);
  try {
    try {
      execFileSync('tar', ['-xf', source, '-C', work], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch {
      throw new BackupError(`${source} is not a backup of this dashboard (it is not an archive tar can read).`);
    }
    const manifest = readManifest(work, source);
    const known = new Set(Object.keys(migrationsFor('sqlite')));
    const newer = manifest.migrations.filter((m) => !known.has(m));
    if (newer.length > 0)
      throw new BackupError(
        `This backup was made by a newer version of the dashboard (its migration ${newer[0]}, unknown here). Restore it with that version or a later one. Nothing was changed.`,
      );
    for (const { name } of manifest.files) {
      const db = new SqliteDatabase(path.join(work, name), { readonly: true, fileMustExist: true });
      try {
        const check = db.pragma('quick_check', { simple: true });
        if (check !== 'ok')
          throw new BackupError(`${name} in ${source} is damaged (${String(check)}). Nothing was changed.`);
      } finally {
        db.close();
      }
    }
    // What is there now is moved aside (its logs with it: the restored files must not meet the old ones').
    const present = [SQLITE_FILE_NAME, HISTORY_FILE].flatMap((file) =>
      COMPANIONS.map((c) => file + c).filter((name) => fs.existsSync(path.join(dataDir, name))),
    );
    let replacedTo: string | null = null;
    if (present.length > 0) {
      replacedTo = path.join(dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      fs.mkdirSync(replacedTo, { mode: 0o700 });
      for (const name of present) fs.renameSync(path.join(dataDir, name), path.join(replacedTo, name));
    }
    for (const { name } of manifest.files) {
      fs.renameSync(path.join(work, name), path.join(dataDir, name));
      fs.chmodSync(path.join(dataDir, name), 0o600);
    }
    return { manifest, replacedTo };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    lock.release();
  }
}

function readManifest(work: string, source: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(work, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new BackupError(`${source} is not a backup of this dashboard (it has no ${MANIFEST}).`);
  }
  if (manifest.format !== FORMAT)
    throw new BackupError(`${source} is a backup of another format (${String(manifest.format)}), not ${FORMAT}.`);
  const names = manifest.files.map((f) => f.name);
  if (!names.includes(SQLITE_FILE_NAME) || names.some((n) => n !== SQLITE_FILE_NAME && n !== HISTORY_FILE))
    throw new BackupError(`${source} does not hold the files of a backup (${names.join(', ')}).`);
  for (const name of names)
    if (!fs.existsSync(path.join(work, name))) throw new BackupError(`${source} lacks ${name}: it is incomplete.`);
  return manifest;
}
