/**
 * The demo's local history, filled before the dashboard starts, so Insights, free text and the
 * History calendar show the product whole in its first minute instead of "nothing to show until a
 * day is copied" and "complete in six days".
 *
 * Through the real copy: for each demo account a session as a sign-in would leave it, the History
 * page's own change (on, the last 31 settled days, "keep copying while I am signed out"), and the
 * sync runner copying every page through the governor, the gateway and HTTP — with the simulator's
 * limits lifted meanwhile (POST /__admin/limits) and the governor's limits raised to match. Then the
 * limits go back: the simulator empties its windows, and the ledger forgets the calls made while
 * they were lifted (the upstream counted them in no window; kept, they would use up every account's
 * day). The sessions made for it are ended; the copies go on at the real limits as days settle.
 *
 * Run in a process of its own (scripts/demo-seed.ts) before the server starts: it holds the data
 * folder while it works.
 */
import { getConfig } from '../../lib/config';
import { authSecret } from '../../lib/auth/auth-secret';
import { seal } from '../../lib/auth/secret-box';
import { addDays, lastSettledDay } from '../../lib/history/days';
import { buildServices, type Services } from '../../lib/root/services';
import { CREDENTIALS } from '../../simulator/accounts';
import { DEMO_HISTORY_DAYS } from './demo-days';

/** The governor's limits while the simulator's are lifted: nothing but the copy's own speed holds it. */
const LIFTED = {
  UPSTREAM_LIMIT_PER_MINUTE: '1000000',
  UPSTREAM_LIMIT_PER_HOUR: '1000000',
  UPSTREAM_LIMIT_PER_DAY: '1000000',
  UPSTREAM_TOKEN_LIMIT_PER_MINUTE: '10000',
  UPSTREAM_BACKGROUND_RESERVE: '0',
  HISTORY_MAX_SHARE: '1',
  // The upstream's one-call-at-a-time rule is lifted too: one call in flight per account's copy.
  UPSTREAM_MAX_IN_FLIGHT: String(CREDENTIALS.length),
};

export interface SeedResult {
  accounts: number;
  days: number;
  records: number;
  /** Upstream calls the copy made while the limits were lifted (forgotten by the ledger since). */
  calls: number;
  seconds: number;
}

async function setSimulatorLimits(simUrl: string, enabled: boolean): Promise<void> {
  const res = await fetch(`${simUrl}/__admin/limits`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ enabled }),
  });
  // 409: a simulator without limits (--no-limits) has none to lift.
  if (!res.ok && res.status !== 409)
    throw new Error(
      `The simulator at ${simUrl} refused to ${enabled ? 'put back' : 'lift'} its limits (${res.status}).`,
    );
}

export async function seedDemoHistory(
  env: NodeJS.ProcessEnv,
  progress: (line: string) => void = () => undefined,
): Promise<SeedResult> {
  const started = Date.now();
  // The history writer's thread does not keep a process alive (the server's HTTP server does):
  // without this, the process would end while waiting for the thread's answers.
  const alive = setInterval(() => undefined, 60_000);
  const config = getConfig({ ...env, ...LIFTED });
  await setSimulatorLimits(config.UPSTREAM_BASE_URL, false);
  let services: Services | undefined;
  try {
    services = await buildServices(config);
    const now = Date.now();
    const last = lastSettledDay(services.policy.settledBefore(now));
    const since = addDays(last, -(DEMO_HISTORY_DAYS - 1));
    const accounts = [];
    for (const credential of CREDENTIALS) {
      const sid = `demo-seed-${credential.apiKey}`;
      // The session a sign-in would leave: the History page's change seals its secret from it.
      await services.store.vault.put({
        sid,
        apiKey: credential.apiKey,
        enterpriseId: credential.enterpriseId,
        sealedSecret: seal(credential.secret, authSecret()),
        createdAt: now,
        expiresAt: now + 3600_000,
      });
      const account = { apiKey: credential.apiKey, enterpriseId: credential.enterpriseId, sid };
      await services.history.put(account, { enabled: true, since, keepSyncingSignedOut: true });
      accounts.push(account);
    }
    services.syncRunner.start();
    let said = 0;
    for (;;) {
      const states = await Promise.all(accounts.map((a) => services!.history.get(a)));
      const wanted = states.reduce((n, s) => n + s.days.filter((d) => d.day >= since && d.day <= last).length, 0);
      const complete = states.reduce((n, s) => n + s.days.filter((d) => d.state === 'complete').length, 0);
      if (states.every((s) => s.state === 'complete')) break;
      const failing = states.find((s) => s.state === 'waiting' || s.state === 'paused');
      if (failing?.message && Date.now() - started > 30_000 && failing.state === 'paused')
        throw new Error(`The demo's copy stopped: ${failing.message}`);
      if (Date.now() - said > 5_000) {
        progress(`Filling the demo accounts' local history: ${complete} of ${wanted} days…`);
        said = Date.now();
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    // Every day in, its text index and day packs built: searches and Insights are fast from the start.
    await services.store.history.settled();
    await services.syncRunner.stop();
    const days = (await Promise.all(accounts.map((a) => services!.history.get(a)))).reduce(
      (n, s) => n + s.days.filter((d) => d.state === 'complete').length,
      0,
    );
    const records = (await Promise.all(accounts.map((a) => services!.history.get(a)))).reduce(
      (n, s) => n + s.records,
      0,
    );
    // The calls made while the upstream's limits were lifted: it counted them in no window.
    const forgotten = await services.store.db.deleteFrom('upstream_calls').where('at', '>=', now).executeTakeFirst();
    for (const a of accounts) await services.store.vault.delete(a.sid);
    return {
      accounts: accounts.length,
      days,
      records,
      calls: Number(forgotten.numDeletedRows),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await services?.close();
    await setSimulatorLimits(config.UPSTREAM_BASE_URL, true);
    clearInterval(alive);
  }
}
