import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open-database';

const root = path.resolve(__dirname, '../..');
const children: ChildProcess[] = [];
const folders: string[] = [];

/** Another dashboard process opening the folder; resolves with what it printed. */
function otherProcess(
  dataDir: string,
  mode: 'try' | 'hold' = 'try',
): { child: ChildProcess; answer: Promise<{ opened?: true; error?: string }> } {
  const child = spawn(
    process.execPath,
    ['--conditions=react-server', '--import', 'tsx', path.join(root, 'tests/support/open-data-dir.ts'), dataDir, mode],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const answer = new Promise<{ opened?: true; error?: string }>((resolve, reject) => {
    readline
      .createInterface({ input: child.stdout! })
      .once('line', (line) => resolve(JSON.parse(line) as { opened?: true; error?: string }));
    child.once('exit', (code) => reject(new Error(`the other process ended (${code}) without answering`)));
  });
  return { child, answer };
}

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-lock-'));
  folders.push(dir);
  return path.join(dir, 'data');
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of folders.splice(0)) fs.rmSync(f, { recursive: true, force: true });
});

describe('one process per SQLite data folder', () => {
  it('refuses a second process, saying to use DATABASE_URL for several instances', async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir });
    try {
      const { answer } = otherProcess(dir);
      const { error } = await answer;
      expect(error).toMatch(/Another dashboard process is using the data folder/);
      expect(error).toMatch(/DATABASE_URL/);
      expect(error).toMatch(/PostgreSQL/);
    } finally {
      await first.close();
    }
    // Once the first has closed, the folder is free.
    expect(await otherProcess(dir).answer).toEqual({ opened: true });
  });

  it('is refused here while another process holds the folder, and freed when that process dies', async () => {
    const dir = dataDir();
    const { child, answer } = otherProcess(dir, 'hold');
    expect(await answer).toEqual({ opened: true });
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/DATABASE_URL/);
    // A crash leaves no stale lock: the kernel drops it with the process.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const opened = await openDatabase({ dataDir: dir });
    await opened.close();
  });

  it('leaves other data folders alone', async () => {
    const a = await openDatabase({ dataDir: dataDir() });
    const b = await openDatabase({ dataDir: dataDir() });
    await Promise.all([a.close(), b.close()]);
  });
});
