/**
 * `npm run demo:cluster`: the dashboard deployed as several instances — PostgreSQL, the upstream
 * simulator with demo data (real limits on), two instances of the dashboard's production build on
 * one DATABASE_URL and one NEXTAUTH_SECRET, and a round-robin proxy in front of them on one port
 * (scripts/lib/round-robin-proxy.ts), so each request goes to the next instance in turn. Stop one
 * instance (its pid is printed) and the other carries on: sessions, quota and exports are shared.
 *
 * PostgreSQL: the server of DATABASE_URL when it is given; otherwise a cluster of the demo's own
 * from Debian's binaries, kept in `<DATA_DIR>/postgres` (default data/demo-cluster/postgres): made
 * on the first run and started again on the next, so the demo's ledger, sessions and exports survive
 * a restart as `npm run demo`'s SQLite file does. Delete the folder to start afresh.
 *
 * Ports: PORT (3000) for the proxy, the two next ones for the instances, SIM_PORT (4010). Ctrl-C
 * stops everything it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { CREDENTIALS } from '../simulator/accounts';
import { startPostgres, type PostgresServer } from '../tests/support/postgres';
import { ensureBuild } from './lib/build';
import { startRoundRobinProxy, type RunningProxy } from './lib/round-robin-proxy';
import { portOf } from './lib/port-of';

const root = path.resolve(__dirname, '..');
const port = portOf('PORT', 3000);
const simPort = portOf('SIM_PORT', 4010);
const distDir = process.env.NEXT_DIST_DIR ?? '.next';
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data', 'demo-cluster'));
const INSTANCES = ['A', 'B'] as const;
const DATABASE = 'dashboard';

/** A folder as the person knows it: relative to the project when inside it. */
const shown = (p: string) => (p.startsWith(`${root}${path.sep}`) ? path.relative(root, p) : p);

function portFree(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(p, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Resolves when the child prints a line matching `pattern`; its lines are echoed with `prefix`. */
function echoUntil(child: ChildProcess, prefix: string, pattern: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let ready = false;
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      console.log(`${prefix}${line}`);
      if (!ready && pattern.test(line)) {
        ready = true;
        resolve();
      }
    });
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`${what} exited (code ${code}) before it was ready`));
    });
  });
}

/** The demo's database on its own cluster, made when missing. */
async function demoDatabase(adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

async function main() {
  const instancePorts = INSTANCES.map((_, i) => port + 1 + i);
  const ports: [number, string, string][] = [
    [port, 'the proxy', 'PORT'],
    ...instancePorts.map((p, i): [number, string, string] => [p, `instance ${INSTANCES[i]}`, 'PORT']),
    [simPort, 'the simulator', 'SIM_PORT'],
  ];
  for (const [p, name, variable] of ports) {
    if (!(await portFree(p))) {
      console.error(
        `Port ${p} (${name}) is in use. Stop what uses it, or choose others with ${variable}=<port> npm run demo:cluster (the instances take the two ports after PORT).`,
      );
      process.exit(1);
    }
  }

  const children: ChildProcess[] = [];
  /** What is running, for Ctrl-C (filled in as things start). */
  const running: { postgres?: PostgresServer; proxy?: RunningProxy } = {};
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    await running.proxy?.close();
    await running.postgres?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  let databaseUrl = process.env.DATABASE_URL;
  const ownDatabase = !databaseUrl;
  if (!databaseUrl) {
    console.log(`Starting PostgreSQL in ${shown(path.join(dataDir, 'postgres'))} …`);
    running.postgres = await startPostgres({ dir: path.join(dataDir, 'postgres') });
    databaseUrl = await demoDatabase(running.postgres.url);
  }

  const env = {
    ...process.env,
    UPSTREAM_BASE_URL: process.env.UPSTREAM_BASE_URL ?? `http://127.0.0.1:${simPort}`,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    // A stop lets background calls in flight finish (lib/root/graceful-stop.ts).
    NEXT_MANUAL_SIG_HANDLE: 'true',
    // The URL people use is the proxy's: next-auth builds its links and redirects from it.
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    // One secret for every instance (a cookie of one must open on the others); the demo's only.
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? 'demo-only-secret-not-for-production-5b1f0c9e',
    NEXT_DIST_DIR: distDir,
    NEXT_TELEMETRY_DISABLED: '1',
    // The instances sit behind the round-robin proxy, which adds the address it was reached from to
    // X-Forwarded-For: without this every client would be the proxy's 127.0.0.1 to the sign-in
    // throttle (one address's failures would hold everybody's sign-ins).
    TRUST_PROXY_HOPS: process.env.TRUST_PROXY_HOPS ?? '1',
  };

  try {
    ensureBuild(root, distDir, env, console.log);
  } catch {
    await running.postgres?.stop();
    process.exit(1);
  }

  // Node itself rather than npx: the pids printed below are the programs', so `kill <pid>` stops one.
  const sim = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'simulator/cli.ts', '--port', String(simPort)],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(sim);
  await echoUntil(sim, '[sim] ', /listening on/, 'The simulator');

  // Both at once, as a rolling deploy or an autoscaler would start them: the migrations are safe.
  const instances = INSTANCES.map((name, i) => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(instancePorts[i])],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    return {
      name,
      port: instancePorts[i]!,
      child,
      ready: echoUntil(child, `[${name}] `, /Ready|started server|Local:/i, `Instance ${name}`),
    };
  });
  await Promise.all(instances.map((i) => i.ready));

  running.proxy = await startRoundRobinProxy({
    port,
    targets: instances.map((i) => ({ name: i.name, url: `http://127.0.0.1:${i.port}` })),
  });

  const accounts = CREDENTIALS.map((c) => `    ${c.apiKey.padEnd(12)} ${c.secret.padEnd(20)} ${c.description}`).join(
    '\n',
  );
  const where = ownDatabase
    ? `${shown(path.join(dataDir, 'postgres'))} (kept between runs; delete it to start afresh)`
    : 'DATABASE_URL (yours)';
  console.log(`
  SMS history dashboard, ${instances.length} instances behind one port:  http://localhost:${port}
${instances.map((i) => `    instance ${i.name}  http://localhost:${i.port}  (pid ${i.child.pid})`).join('\n')}
    each request goes to the next instance; the X-Dashboard-Instance header says which answered.
    Stop one (kill <pid>) and the other carries on: sessions, quota and exports live in PostgreSQL.
  PostgreSQL:             ${where}
  Upstream simulator:     http://127.0.0.1:${simPort}  (the real upstream's limits: 1 at a time, 3/min, 10/h, 100/day)

  Sign in with one of the demo accounts (API key, secret):
${accounts}

  Ctrl-C stops everything.
`);
  sim.once('exit', () => void stop());
  // An instance may be stopped on purpose (that is the demo); only when all are gone does the demo end.
  let alive = instances.length;
  for (const i of instances)
    i.child.once('exit', () =>
      --alive === 0 ? void stop() : console.log(`  instance ${i.name} stopped; the others carry on.`),
    );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
