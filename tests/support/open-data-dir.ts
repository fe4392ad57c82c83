/**
 * A second dashboard process, for the data-folder lock's tests: opens the SQLite store in the folder
 * given, prints one JSON line ({"opened":true} or {"error":"…"}), and with `hold` keeps the store
 * open until it is killed. Run with `node --conditions=react-server --import tsx` (the condition
 * makes `server-only` importable outside Next).
 */
import { openDatabase } from '../../lib/db/open-database';

const [dataDir, mode] = process.argv.slice(2);

openDatabase({ dataDir: dataDir! }).then(
  async (opened) => {
    process.stdout.write(`${JSON.stringify({ opened: true })}\n`);
    if (mode === 'hold') setInterval(() => undefined, 60_000);
    else await opened.close();
  },
  (err: unknown) => {
    process.stdout.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
    process.exitCode = 1;
  },
);
