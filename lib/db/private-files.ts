import 'server-only';
/**
 * The data folder and the files in it are the server's alone: the store holds phone numbers and
 * message bodies. Folders are created 0700 and files 0600 whatever the process umask.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Creates the folder (and missing parents) readable by this user only; an existing folder is left
 * as it is. One level at a time, from the nearest folder that exists: Node 20's `recursive` mkdir
 * never returns under /proc (a DATA_DIR there spun a core forever), where a plain mkdir says ENOENT.
 */
export function ensurePrivateDir(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const folder of missing) {
    fs.mkdirSync(folder, { mode: 0o700 });
    // Only folders made here are tightened (the umask may have loosened them): DATA_DIR may point
    // into a folder the operator manages.
    fs.chmodSync(folder, 0o700);
  }
}

/** Creates the file if missing and makes it (new or not: it is ours) readable by this user only. */
export function ensurePrivateFile(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
  } finally {
    fs.closeSync(fd);
  }
}

/** Tightens the file when it exists (companions SQLite made before this rule, say). */
export function tightenIfPresent(file: string): void {
  try {
    fs.chmodSync(file, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
