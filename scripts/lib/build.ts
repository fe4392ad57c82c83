/**
 * When the dashboard's production build must be made again: there is none in `distDir`, or a source
 * file is newer than it. Shared by the demo launcher and the benchmarks, so neither runs
 * yesterday's code.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['app', 'components', 'lib'];
const SOURCE_FILES = ['package.json', 'next.config.mjs', 'instrumentation.ts'];

function newestMtime(dir: string): number {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function buildIsStale(root: string, distDir: string): boolean {
  const buildId = path.join(root, distDir, 'BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  const newest = Math.max(
    ...SOURCE_DIRS.map((d) => newestMtime(path.join(root, d))),
    ...SOURCE_FILES.filter((f) => fs.existsSync(path.join(root, f))).map(
      (f) => fs.statSync(path.join(root, f)).mtimeMs,
    ),
  );
  return newest > built;
}

/** Builds into `distDir` when needed (BENCH_REBUILD=1 forces it); throws when the build fails. */
export function ensureBuild(
  root: string,
  distDir: string,
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = console.error,
): void {
  if (env.BENCH_REBUILD !== '1' && !buildIsStale(root, distDir)) return;
  log(`Building the dashboard into ${distDir} (about a minute)…`);
  const r = spawnSync('npx', ['next', 'build'], {
    cwd: root,
    env: { ...env, NEXT_DIST_DIR: distDir, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error('next build failed');
}

/** ensureBuild without holding the caller's thread: the demo fills its local history meanwhile. */
export function ensureBuildInBackground(
  root: string,
  distDir: string,
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = console.error,
): Promise<void> {
  if (env.BENCH_REBUILD !== '1' && !buildIsStale(root, distDir)) return Promise.resolve();
  log(`Building the dashboard into ${distDir} (two to three minutes on two cores)…`);
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['next', 'build'], {
      cwd: root,
      env: { ...env, NEXT_DIST_DIR: distDir, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error('next build failed'))));
  });
}
