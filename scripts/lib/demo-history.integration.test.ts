/**
 * The demo's local history: every demo account ends with its last 31 settled days complete, copied
 * through the real sync against a simulator whose limits were lifted for it and are back after;
 * the ledger keeps none of those calls (the simulator counted them in no window), no session made
 * for it is left, and the copies go on copying while signed out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { CREDENTIALS } from '../../simulator/accounts';
import { openStore } from '../../lib/root/open-store';
import { scopeOf } from '../../lib/history/scope';
import { getToken, apiGet, queryPath } from '../../simulator/test-client';
import { formatWallClock } from '../../lib/time/zones';
import { DEMO_HISTORY_DAYS } from './demo-days';
import { seedDemoHistory } from './demo-history';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-demo-seed-'));
let sim: RunningSimulator | undefined;
afterAll(async () => {
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo’s local history', () => {
  it('holds the last 31 settled days of every account, copied with the limits lifted, then put back', async () => {
    sim = await startSimulator({ port: 0, quiet: true, days: 40, perDay: 150 });
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      UPSTREAM_BASE_URL: sim.url,
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? 'test-only-secret-0123456789abcdef0123456789',
    };
    const result = await seedDemoHistory(env);
    expect(result.accounts).toBe(CREDENTIALS.length);
    expect(result.days).toBe(CREDENTIALS.length * DEMO_HISTORY_DAYS);
    expect(result.calls).toBeGreaterThan(CREDENTIALS.length * DEMO_HISTORY_DAYS);

    const store = await openStore({ dataDir, DATABASE_URL: undefined });
    try {
      for (const c of CREDENTIALS) {
        const scope = scopeOf({ apiKey: c.apiKey, enterpriseId: c.enterpriseId }).key;
        const days = await store.history.listDays(scope);
        expect(
          days.filter((d) => d.state === 'complete'),
          c.apiKey,
        ).toHaveLength(DEMO_HISTORY_DAYS);
        const settings = await store.history.getSettings(scope);
        expect(settings).toMatchObject({ enabled: true, keepSignedOut: true });
        expect(settings?.sealedSecret).toBeTruthy();
        expect(await store.vault.forApiKey(c.apiKey)).toEqual([]);
      }
      // No call of the copy left in the ledger: every account starts with its whole day.
      expect(await store.db.selectFrom('upstream_calls').select('id').execute()).toEqual([]);
    } finally {
      await store.close();
    }

    // The simulator's limits are back, with empty windows: three calls a minute, the fourth refused.
    const token = await getToken(sim, 'fuji');
    const from = Date.now() - 5 * 86_400_000;
    const range = queryPath({
      'date-from': formatWallClock(new Date(from), 'UTC'),
      'date-to': formatWallClock(new Date(from + 3600_000), 'UTC'),
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await apiGet(sim, range, token)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  }, 240_000);
});
