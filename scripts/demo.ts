/**
 * `npm run demo`: the upstream simulator with demo data, and the dashboard (production build) in
 * front of it, both on loopback. Builds the dashboard when there is no build yet or a source file
 * is newer than it; `--dev` runs `next dev` instead. Meanwhile the demo accounts' local history is
 * filled with the last 31 settled days, through the real copy with the simulator's limits lifted
 * for it (scripts/lib/demo-history.ts), so the product shows whole from the first minute; the
 * dashboard then starts at the real limits. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';
import path from 'node:path';
import { CREDENTIALS } from '../simulator/accounts';
import { ensureBuildInBackground } from './lib/build';
import { DEMO_HISTORY_DAYS } from './lib/demo-days';
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

  const started = Date.now();
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

  // The build (when needed) and the local history side by side: neither needs the other.
  const [built, seeded] = await Promise.allSettled([
    dev ? Promise.resolve() : ensureBuildInBackground(root, distDir, env, console.log),
    seedHistory(env),
  ]);
  if (built.status === 'rejected') {
    console.error(built.reason instanceof Error ? built.reason.message : String(built.reason));
    stop();
  }

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
  const history =
    seeded.status === 'fulfilled'
      ? `Every demo account's local history holds the last ${DEMO_HISTORY_DAYS} settled days (${seeded.value}),
  copied through the real sync with the simulator's limits lifted while the demo started; the real
  limits apply from now on, and the copies go on as days settle. Insights, free text and the History
  calendar are filled.`
      : `The demo's local history could not be filled (${String(seeded.reason)}): turn it on from the History page.`;
  console.log(`
  SMS history dashboard:  http://localhost:${port}      (ready ${Math.round((Date.now() - started) / 1000)} s after npm run demo started)
  Upstream simulator:     http://127.0.0.1:${simPort}  (the real upstream's limits: 1 at a time, 3/min, 10/h, 100/day)

  ${history}

  Sign in with one of the demo accounts (API key, secret):
${accounts}

  Ctrl-C stops both.
`);
  sim.once('exit', () => stop());
  next.once('exit', () => stop());
}

/** Fills the demo accounts' local history in a process of its own (scripts/demo-seed.ts); what it did, in words. */
function seedHistory(env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', '--conditions=react-server', 'scripts/demo-seed.ts'], {
      cwd: root,
      env: { ...env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let last = '';
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('seeded ')) last = line.slice('seeded '.length);
      else console.log(line);
    });
    child.once('exit', (code) => (code === 0 && last ? resolve(last) : reject(new Error(`exit code ${code}`))));
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
