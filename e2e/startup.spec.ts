/**
 * A server that cannot work does not start: a wrong setting, or no NEXTAUTH_SECRET in production,
 * stops `next start` at once with the reason and exit code 1, rather than a server that says it is
 * ready and answers every request 500.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './test';
import { SIM_URL, STARTUP_PORT } from './env';
import { OwnDashboard } from './own-dashboard';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-dash-startup-'));
test.afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function refusal(env: Record<string, string>): Promise<{ code: number | null; log: string }> {
  const server = new OwnDashboard(STARTUP_PORT, () => ({
    DATA_DIR: dataDir,
    UPSTREAM_BASE_URL: SIM_URL,
    NEXTAUTH_SECRET: 'e2e-only-secret-0123456789abcdef0123456789abcdef',
    ...env,
  }));
  await expect(server.start()).rejects.toThrow(/did not start/);
  const code = server.exitCode;
  await server.stop();
  return { code, log: server.log };
}

test.describe('a server that cannot work', () => {
  test('stops at start with the setting that is wrong', async () => {
    const { code, log } = await refusal({ UPSTREAM_LIMIT_PER_MINUTE: 'three' });
    expect(code).toBe(1);
    expect(log).toContain('The dashboard cannot start');
    expect(log).toContain('UPSTREAM_LIMIT_PER_MINUTE');
  });

  test('stops at start in production without a NEXTAUTH_SECRET', async () => {
    const { code, log } = await refusal({ NEXTAUTH_SECRET: '' });
    expect(code).toBe(1);
    expect(log).toContain('NEXTAUTH_SECRET must be set in production');
  });
});
