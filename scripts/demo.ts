/**
 * `npm run demo`: the upstream simulator with demo data, and the dashboard (production build) in
 * front of it, both on loopback. Builds the dashboard when there is no build yet or a source file
 * is newer than it; `--dev` runs `next dev` instead. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { CREDENTIALS } from '../simulator/accounts';
import { ensureBuild } from './lib/build';
import { portOf } from './lib/port-of';

const root = path.resolve(__dirname, '..');
const dev = process.argv.includes('--dev');
const port = portOf('PORT', 3000);
const simPort = portOf('SIM_PORT', 4010);
const distDir = process.env.NEXT_DIST_DIR ?? '.next';

function portFree(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(p, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`${what} exited (code ${code}) before it was ready:\n${seen.slice(-2000)}`)),
    );
  });
}

async function main() {
  for (const [p, name, variable] of [
    [port, 'dashboard', 'PORT'],
    [simPort, 'simulator', 'SIM_PORT'],
  ] as const) {
    if (!(await portFree(p))) {
      console.error(
        `Port ${p} (${name}) is in use. Stop what uses it, or choose another with ${variable}=<port> npm run demo.`,
      );
      process.exit(1);
    }
  }

  const env = {
    ...process.env,
    UPSTREAM_BASE_URL: process.env.UPSTREAM_BASE_URL ?? `http://127.0.0.1:${simPort}`,
    DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data', 'demo'),
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    // A fixed secret for the demo only, so a restarted demo keeps its sessions. Never in production.
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? 'demo-only-secret-not-for-production-5b1f0c9e',
    NEXT_DIST_DIR: distDir,
    NEXT_TELEMETRY_DISABLED: '1',
    // A stop lets background calls in flight finish (lib/root/graceful-stop.ts).
    NEXT_MANUAL_SIG_HANDLE: 'true',
  };

  if (!dev) {
    try {
      ensureBuild(root, distDir, env, console.log);
    } catch {
      process.exit(1);
    }
  }

  const children: ChildProcess[] = [];
  const stop = () => {
    for (const c of children) c.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const sim = spawn('npx', ['tsx', 'simulator/cli.ts', '--port', String(simPort)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(sim);
  sim.stdout?.pipe(process.stdout);
  await waitForLine(sim, /listening on/, 'The simulator');

  const next = spawn('npx', ['next', dev ? 'dev' : 'start', '-p', String(port)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(next);
  next.stdout?.pipe(process.stdout);
  await waitForLine(next, /Ready|started server|Local:/i, 'The dashboard');

  const accounts = CREDENTIALS.map((c) => `    ${c.apiKey.padEnd(12)} ${c.secret.padEnd(20)} ${c.description}`).join(
    '\n',
  );
  console.log(`
  SMS history dashboard:  http://localhost:${port}
  Upstream simulator:     http://127.0.0.1:${simPort}  (the real upstream's limits: 1 at a time, 3/min, 10/h, 100/day)

  Sign in with one of the demo accounts (API key, secret):
${accounts}

  Ctrl-C stops both.
`);
  sim.once('exit', () => stop());
  next.once('exit', () => stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
