import fs from 'node:fs';
import { DATA_ROOT } from './env';

/** The dashboards' throwaway data folders (SQLite, export files) go with the run. */
export default function globalTeardown(): void {
  fs.rmSync(DATA_ROOT, { recursive: true, force: true });
}
