/**
 * A small disk for tests of what happens when the store's disk fills: a tmpfs of a few megabytes
 * mounted on a temporary folder (needs root, as the project's test machines run; `available()`
 * says whether this machine lets us), filled to the last byte with a file of zeros on demand, and
 * freed again by deleting it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Fills what is left with a file, to the last block. */
  fill(): void;
  /** Deletes the filling: the space is back. */
  free(): void;
  unmount(): void;
}

let checked: boolean | undefined;

/** Whether a tmpfs can be mounted here (root with the right to mount). */
export function smallDiskAvailable(): boolean {
  if (checked !== undefined) return checked;
  try {
    const disk = mountSmallDisk(1);
    disk.unmount();
    checked = true;
  } catch {
    checked = false;
  }
  return checked;
}

export function mountSmallDisk(megabytes: number): SmallDisk {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0777`, 'tmpfs', dir], { stdio: 'ignore' });
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      try {
        // Large blocks first, then small ones for the last bytes.
        for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
          const block = Buffer.alloc(size);
          for (;;) {
            try {
              fs.writeSync(fd, block);
            } catch (err) {
              if ((err as { code?: string }).code === 'ENOSPC') break;
              throw err;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
