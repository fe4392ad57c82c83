/**
 * `npm run backup -- <file>`: a consistent copy of the embedded store (DATA_DIR's two SQLite files)
 * into one archive, while the dashboard runs (scripts/lib/store-backup.ts). With DATABASE_URL the
 * store is PostgreSQL's: use pg_dump (README, "Backup and restore").
 */
import path from 'node:path';
import { getConfig } from '../lib/config';
import { backupSqlite, BackupError } from './lib/store-backup';

function main(): void {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('Usage: npm run backup -- <file>   (e.g. npm run backup -- backups/dashboard-2026-12-01.tar)');
    process.exit(2);
  }
  const config = getConfig();
  if (config.DATABASE_URL) {
    console.error(
      'This dashboard keeps its store in PostgreSQL (DATABASE_URL): back it up with pg_dump (README, "Backup and restore").',
    );
    process.exit(1);
  }
  // npm runs scripts from the project's folder: a relative file is the caller's.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const started = performance.now();
  const manifest = backupSqlite(config.dataDir, target);
  const sizes = manifest.files.map((f) => `${f.name} ${(f.bytes / 1024 ** 2).toFixed(1)} MB`).join(', ');
  console.log(
    `Backed up ${config.dataDir} into ${target} (${sizes}) in ${((performance.now() - started) / 1000).toFixed(1)} s. It holds phone numbers and messages: keep it as safe as the data folder.`,
  );
}

try {
  main();
} catch (err) {
  console.error(
    err instanceof BackupError ? err.message : `The backup failed: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
}
