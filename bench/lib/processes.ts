/**
 * Real processes for benchmarks and process-level tests: the simulator (`tsx simulator/cli.ts`) and
 * the dashboard's production build (`next start`), each on its own loopback port and data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '../../scripts/lib/build';

export const ROOT = path.resolve(__dirname, '..', '..');

/** Every process started here, so that none outlives the script, even when it fails. */
const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Proc {
  url: string;
  port: number;
  child: ChildProcess;
  /** Resident set size of the process in bytes (Linux /proc), sampled now. */
  rss(): number;
  /** CPU time the process (and its children) used so far, in ms (Linux /proc, 10 ms steps). */
  cpuMs(): number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function waitFor(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} not ready after ${timeoutMs} ms:\n${seen.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (seen += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${seen.slice(-2000)}`));
    });
  });
}

function rssOf(pid: number | undefined): number {
  if (!pid) return 0;
  // `next start` and `npx` wrap the real server: sum the process tree.
  let total = 0;
  const visit = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const m = /VmRSS:\s+(\d+) kB/.exec(status);
      if (m) total += Number(m[1]) * 1024;
      const children = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const c of children.split(/\s+/).filter(Boolean)) visit(Number(c));
    } catch {
      /* the process ended */
    }
  };
  visit(pid);
  return total;
}

/** CPU time (user + system, ms) of this process's main thread so far (Linux /proc; clock ticks of 10 ms). */
export function mainThreadCpuMs(): number {
  const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (user + system, ms) of a process tree so far (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  if (!pid) return 0;
  let ticks = 0;
  const visit = (p: number) => {
    try {
      // The fields after the command name (which may hold spaces) start after its closing parenthesis.
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      const children = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const c of children.split(/\s+/).filter(Boolean)) visit(Number(c));
    } catch {
      /* the process ended */
    }
  };
  visit(pid);
  return ticks * 10;
}

function procOf(child: ChildProcess, port: number, host: string): Proc {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return {
    url: `http://${host}:${port}`,
    port,
    child,
    rss: () => rssOf(child.pid),
    cpuMs: () => cpuMsOf(child.pid),
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = (sig: NodeJS.Signals) => {
          // Kill the whole group: npx → node → next-server (the child was started detached).
          try {
            process.kill(-(child.pid as number), sig);
          } catch {
            child.kill(sig);
          }
        };
        // A process that does not stop politely within 5 s is stopped for good.
        const hard = setTimeout(() => kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(hard);
          resolve();
        });
        kill(signal);
      }),
  };
}

export async function startSimulatorProcess(args: string[] = []): Promise<Proc> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'simulator/cli.ts', '--port', String(port), '--quiet', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  await waitFor(child, /listening on/, 'The simulator');
  return procOf(child, port, '127.0.0.1');
}

export interface DashboardOptions {
  upstreamUrl: string;
  distDir?: string;
  dataDir?: string;
  /** A port of its own (default: any free one). */
  port?: number;
  /** false: the build exists already (made by whoever runs this); do not look at it. */
  build?: boolean;
  env?: Record<string, string>;
}

export async function startDashboard(opts: DashboardOptions): Promise<Proc & { dataDir: string }> {
  const distDir = opts.distDir ?? process.env.NEXT_DIST_DIR ?? '.next-bench';
  if (opts.build !== false) ensureBuild(ROOT, distDir);
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sms-dash-bench-'));
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_DIST_DIR: distDir,
        UPSTREAM_BASE_URL: opts.upstreamUrl,
        DATA_DIR: dataDir,
        NEXTAUTH_URL: `http://127.0.0.1:${port}`,
        NEXTAUTH_SECRET: 'bench-secret-0123456789abcdef0123456789',
        LOG_LEVEL: 'warn',
        // As `npm start`: a stop lets background calls in flight finish (lib/root/graceful-stop.ts).
        NEXT_MANUAL_SIG_HANDLE: 'true',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  await waitFor(child, /Ready|started server|Local:/i, 'The dashboard');
  return { ...procOf(child, port, '127.0.0.1'), dataDir };
}

/** Signs in through next-auth's own flow, as a browser does; returns the Cookie header to send. */
export async function signIn(baseUrl: string, apiKey: string, apiSecret: string): Promise<string> {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), rest.join('='));
    }
  };
  keep(csrfRes);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie() },
    body: new URLSearchParams({ csrfToken, apiKey, apiSecret, json: 'true' }),
  });
  keep(res);
  if (![...jar.keys()].some((k) => k.endsWith('next-auth.session-token')))
    throw new Error(`sign-in as ${apiKey} failed (${res.status})`);
  return cookie();
}

export interface SimCounts {
  requests: number;
  tokenRequests: number;
  maxInFlight: number;
  rateLimited: number;
}

export async function simStats(simUrl: string): Promise<{ total: SimCounts; accounts: Record<string, SimCounts> }> {
  return (await (await fetch(`${simUrl}/__admin/stats`)).json()) as never;
}

/**
 * Waits until a process (its CPU time in ms, `cpuMs`) uses under a tenth of a core over half a
 * second, at most 60 s; answers how long that took. An upstream timed "alone" while the dashboard
 * still works (a finished job's leftovers, the history writer's queue) shares the cores with it and
 * looks slower than it is.
 */
export async function untilQuiet(cpuMs: () => number): Promise<number> {
  const started = performance.now();
  let before = cpuMs();
  while (performance.now() - started < 60_000) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs();
    if (now - before < 50) break;
    before = now;
  }
  return performance.now() - started;
}
