/**
 * A throwaway PostgreSQL server for tests, benchmarks and e2e: Debian's binaries, a cluster in a
 * temporary folder, listening on a free loopback port with its socket in that folder, stopped and
 * removed by `stop()`. Tuned to start fast and lose everything on a crash (fsync off): never a real
 * database.
 *
 * With `dir`, the cluster lives in that folder instead and is kept between runs (`npm run
 * demo:cluster`): made on first use, started again the next time, stopped cleanly, fsync on.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export const INSTALL_HINT =
  'PostgreSQL is needed for the tests and its binaries were not found (looked in /usr/lib/postgresql/*/bin and PATH). ' +
  'Install them with `apt-get install -y postgresql`, or set TEST_DATABASE_URL to a server the tests may create databases on.';

export interface PostgresServer {
  /** postgres://… of the `postgres` database, as the superuser (create test databases from it). */
  url: string;
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl: Debian's newest /usr/lib/postgresql/<v>/bin, else PATH. */
export function findPostgresBin(): string | null {
  const debian = '/usr/lib/postgresql';
  const versions = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(debian, versions[0], 'bin');
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to (and runs as) `postgres`. */
function clusterUser(): { uid: number; gid: number; wrap: (cmd: string, args: string[]) => [string, string[]] } | null {
  if (process.getuid?.() !== 0) return null;
  let uid: number;
  let gid: number;
  try {
    uid = Number(
      execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    gid = Number(
      execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    throw new Error(
      `Running as root, the test cluster must run as the user \`postgres\`, which does not exist. ${INSTALL_HINT}`,
    );
  }
  return { uid, gid, wrap: (cmd, args) => ['runuser', ['-u', 'postgres', '--', cmd, ...args]] };
}

export interface StartPostgresOptions {
  /** Keep the cluster in this folder between runs (made on first use); default: a temporary folder removed by stop(). */
  dir?: string;
  /** More server settings (`-c name=value` each), e.g. a benchmark's larger shared_buffers. */
  settings?: string[];
}

export async function startPostgres(opts: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(INSTALL_HINT);
  const user = clusterUser();
  const kept = opts.dir !== undefined;
  const root = kept ? path.resolve(opts.dir!) : fs.mkdtempSync(path.join(os.tmpdir(), 'sms-pg-'));
  // Only the cluster's own folder is private: the user `postgres` must be able to reach it.
  fs.mkdirSync(path.dirname(root), { recursive: true });
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(root, user.uid, user.gid);
  const data = path.join(root, 'data');
  const command = (tool: string, args: string[]): [string, string[]] =>
    user ? user.wrap(path.join(bin, tool), args) : [path.join(bin, tool), args];
  const pgCtl = (args: string[]) => command('pg_ctl', ['-D', data, ...args]);
  const discard = () => {
    if (!kept) fs.rmSync(root, { recursive: true, force: true });
  };

  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    try {
      await run(
        ...command('initdb', [
          '-D',
          data,
          '-U',
          'postgres',
          '-A',
          'trust',
          '-E',
          'UTF8',
          '--locale=C',
          '--no-sync',
          '--no-instructions',
        ]),
      );
    } catch (err) {
      if (kept) fs.rmSync(data, { recursive: true, force: true });
      discard();
      throw new Error(`initdb failed: ${(err as { stderr?: string }).stderr ?? String(err)}`);
    }
  }

  let port = 0;
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      // A throwaway cluster trades durability for speed; a kept one does not.
      ...(kept ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
      '-c shared_buffers=16MB',
      '-c max_connections=200',
      ...(opts.settings ?? []).map((setting) => `-c ${setting}`),
    ].join(' ');
    try {
      await run(...pgCtl(['-l', path.join(root, 'server.log'), '-w', '-t', '60', '-o', settings, 'start']));
      break;
    } catch (err) {
      // Another program may have taken the port between the check and the start: try another.
      if (attempt >= 3) {
        const logText = fs.existsSync(path.join(root, 'server.log'))
          ? fs.readFileSync(path.join(root, 'server.log'), 'utf8').slice(-2000)
          : '';
        discard();
        throw new Error(`PostgreSQL did not start: ${(err as { stderr?: string }).stderr ?? String(err)}\n${logText}`);
      }
    }
  }

  let stopped = false;
  // Immediate for a throwaway cluster (nothing in it is worth a clean shutdown); fast for a kept one.
  const mode = kept ? 'fast' : 'immediate';
  // If the process ends without calling stop(), do not leave a server running.
  const onExit = () => {
    if (stopped) return;
    try {
      execFileSync(...pgCtl(['-m', mode, 'stop']), { stdio: 'ignore' });
    } catch {
      // already gone
    }
    discard();
  };
  process.once('exit', onExit);

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      await run(...pgCtl(['-m', mode, 'stop'])).catch(() => undefined);
      discard();
    },
  };
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the server of `adminUrl` (one per test file, so files run in parallel). */
export async function createDatabase(
  adminUrl: string,
  prefix = 'test',
  options: { ctype?: string } = {},
): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  // A ctype of its own (a benchmark's: 'C.UTF-8', whose letters pg_trgm indexes, Japanese included) needs template0.
  const ctype = options.ctype
    ? ` LC_CTYPE '${options.ctype.replace(/'/g, '')}' TEMPLATE template0 ENCODING 'UTF8'`
    : '';
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"${ctype}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
