/**
 * A dashboard of a spec's own: the suite's production build started as a child process on a port,
 * data folder and upstream of the spec's choosing (usually a simulator the spec starts in its own
 * process), so what the spec does moves no count another spec checks. It can be killed and started
 * again, as a crash and a restart would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DIST_DIR } from './env';

export class OwnDashboard {
  readonly url: string;
  private child: ChildProcess | null = null;
  private output = '';
  /** How the last process stopped by `stop` ended: its exit code, or the signal that ended it. */
  lastExit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  /** `env` is read at each start (the simulator's port is known only once it listens). */
  constructor(
    readonly port: number,
    private readonly env: () => Record<string, string>,
  ) {
    this.url = `http://localhost:${port}`;
  }

  /** The exit code of a server that has stopped (null while it runs, or never started). */
  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }

  /** What the server wrote (LOG_LEVEL warn): attached to a failed test. */
  get log(): string {
    return this.output;
  }

  /** Starts `next start` and waits until it answers. */
  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [path.join('node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(this.port)],
      {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          NEXT_DIST_DIR: DIST_DIR,
          NEXTAUTH_URL: this.url,
          LOG_LEVEL: 'warn',
          // The specs' own requests are a script's: English (playwright.config.ts).
          DEFAULT_LOCALE: 'en',
          NEXT_TELEMETRY_DISABLED: '1',
          NEXT_MANUAL_SIG_HANDLE: 'true',
          ...this.env(),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child = child;
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      if (child.exitCode !== null) break;
      try {
        if ((await fetch(`${this.url}/signin`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the dashboard on port ${this.port} did not start:\n${this.output}`);
  }

  /** SIGTERM to stop, SIGKILL to crash it; resolves once the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((r) =>
      child.once('exit', (code, sig) => {
        this.lastExit = { code, signal: sig };
        r();
      }),
    );
    child.kill(signal);
    await exited;
  }
}
