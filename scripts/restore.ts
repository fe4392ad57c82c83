/**
 * `npm run restore -- <file>`: puts a backup made by `npm run backup` back into DATA_DIR, refusing
 * while a dashboard uses that folder (scripts/lib/store-backup.ts). With DATABASE_URL the store is
 * PostgreSQL's: use pg_restore (README, "Backup and restore").
 */
import path from 'node:path';
import { getConfig } from '../lib/config';
import { BackupError, restoreSqlite } from './lib/store-backup';

function main(): void {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    console.error('Usage: npm run restore -- <file>   (a file made by npm run backup)');
    process.exit(2);
  }
  const config = getConfig();
  if (config.DATABASE_URL) {
    console.error(
      'This dashboard keeps its store in PostgreSQL (DATABASE_URL): restore it with pg_restore (README, "Backup and restore").',
    );
    process.exit(1);
  }
  const source = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const { manifest, replacedTo } = restoreSqlite(config.dataDir, source);
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${config.dataDir}.` +
      (replacedTo
        ? ` The files it replaced are in ${replacedTo}: delete that folder once the dashboard runs as it should (it holds phone numbers and messages).`
        : ''),
  );
}

try {
  main();
} catch (err) {
  console.error(
    err instanceof BackupError
      ? err.message
      : `The restore failed: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
}
