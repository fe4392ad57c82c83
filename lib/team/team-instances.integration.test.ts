/**
 * Team mode across instances: two service instances on one PostgreSQL database, as two servers of a
 * cluster behind a load balancer have them (each its own composition root, vault reads, audit
 * writes and clock; nothing shared but the database). They agree on:
 *  - a suspension: made on one, the person's session is refused on the other at its next request;
 *  - the audit log: what either writes, both read, in one order;
 *  - the reveal limit: reveals sent at once to both instances pass it together never;
 *  - a replaced team secret: the other instance's sessions renew with the new one;
 *  - a role's reading: when it is due, one request of one instance reads it.
 */
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authSecret, unseal } from '../auth/server';
import { configSchema } from '../config';
import { buildServices, type Services } from '../root/services';
import { requestAccount } from '../root/with-account';
import { createDatabase, type TestDatabase } from '../../tests/support/postgres';
import { TEST_ORIGIN, teamSession, SESSION_COOKIE, type TestSession } from '../../tests/support/team-session';
import { startSimulator, type RunningSimulator } from '../../simulator/server';
import { HOUR_MS } from '../time/units';

let database: TestDatabase;
let sim: RunningSimulator;
let a: Services;
let b: Services;

beforeAll(async () => {
  database = await createDatabase(inject('postgresAdminUrl'), 'team');
  sim = await startSimulator({ port: 0, quiet: true, perDay: 200, days: 3, limits: false });
  const config = {
    ...configSchema.parse({
      UPSTREAM_BASE_URL: sim.url,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'error',
      OIDC_ISSUER: 'http://127.0.0.1:9/unused',
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'client-secret',
      TEAM_SUPPORT_GROUPS: 'sms-support',
      TEAM_API_KEY: 'sakura-ops',
      TEAM_API_SECRET: 'sakura-ops-secret',
      REVEAL_LIMIT_PER_HOUR: '3',
      UPSTREAM_LIMIT_PER_MINUTE: '1000',
      UPSTREAM_LIMIT_PER_HOUR: '10000',
    }),
    dataDir: '/nonexistent',
  };
  // Started together, as a rolling deploy starts them: the environment's account is put in once.
  [a, b] = await Promise.all([buildServices(config), buildServices(config)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await sim?.close();
  await database?.drop();
});

function request(session: TestSession): NextRequest {
  return new NextRequest(`${TEST_ORIGIN}/api/team/session`, {
    headers: { cookie: `${SESSION_COOKIE}=${session.cookie}` },
  });
}

describe('two instances on one PostgreSQL', () => {
  it('hold one team account, put in once by whichever started first', async () => {
    expect(await a.team.accounts()).toEqual(await b.team.accounts());
    expect(await a.team.accounts()).toHaveLength(1);
  });

  it('agree on a suspension at the very next request', async () => {
    const admin = await teamSession(a, 'aiko', 'admin');
    const sora = await teamSession(a, 'sora', 'support');
    expect((await requestAccount(request(sora), b)).team?.person).toBe('sora');
    await a.team.suspend(await requestAccount(request(admin), a), 'sora');
    const refused = await requestAccount(request(sora), b).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toMatchObject({ problem: { status: 401, type: '/problems/session-ended' } });
    expect((await b.team.people()).find((p) => p.id === 'sora')).toMatchObject({ suspendedBy: 'aiko', sessions: 0 });
  });

  it('read one audit log, whichever instance wrote', async () => {
    const admin = await requestAccount(request(await teamSession(b, 'aiko', 'admin')), b);
    const saki = await requestAccount(request(await teamSession(b, 'saki', 'support')), b);
    await a.team.audit(saki, 'page-csv', { query: { da: '819012345678', status: 'DELIVRD' } });
    await b.team.audit(admin, 'export', { query: { 'date-from': '2026-11-01 00:00:00' } });
    const fromA = await a.team.auditLog({}, 50);
    const fromB = await b.team.auditLog({}, 50);
    expect(fromA).toEqual(fromB);
    expect(fromA.entries.slice(0, 2).map((e) => [e.actor, e.action])).toEqual([
      ['aiko', 'export'],
      ['saki', 'page-csv'],
    ]);
    // The number is masked in the query the log shows, and found by its hash on either instance.
    expect(fromA.entries[1]!.query).toBe('da=81******5678&status=DELIVRD');
    expect((await b.team.auditLog({ number: '090-1234-5678' }, 50)).entries.map((e) => e.action)).toEqual(['page-csv']);
  });

  it('keep the reveal limit together: six reveals at once to both, three pass', async () => {
    const vic = await teamSession(a, 'vic', 'support');
    const onA = await requestAccount(request(vic), a);
    const onB = await requestAccount(request(vic), b);
    const record = { trx_id: 'a'.repeat(32), to_address: '819011112222' } as never;
    const results = await Promise.all(
      [onA, onB, onA, onB, onA, onB].map((account, i) =>
        (i % 2 ? b : a).team
          .reveal(account, 'a'.repeat(32), `ticket ${i} about a missing code`, async () => record)
          .then(
            () => 'revealed',
            (err: { problem?: { status: number } }) => err.problem?.status,
          ),
      ),
    );
    expect(results.filter((r) => r === 'revealed')).toHaveLength(3);
    expect(results.filter((r) => r === 429)).toHaveLength(3);
  });

  it('renew with a secret replaced on the other instance', async () => {
    const admin = await requestAccount(request(await teamSession(a, 'aiko', 'admin')), a);
    const sora2 = await teamSession(b, 'kai', 'support');
    await a.team.replaceSecret(admin, 'env', 'sakura-ops-rotated');
    const entry = await b.vault.get(sora2.sid, Date.now());
    expect(unseal(entry!.sealedSecret, authSecret())).toBe('sakura-ops-rotated');
    // Background work on b, with nobody signed in, renews with it too (the stand-in session).
    const standIn = await b.vault.liveSession('sakura-ops', Date.now() + 2 * HOUR_MS);
    expect(unseal(standIn!.sealedSecret, authSecret())).toBe('sakura-ops-rotated');
  });

  it('let one request of one instance read a due role', async () => {
    const session = await teamSession(a, 'mei', 'support', { roleCheckedAt: Date.now() - HOUR_MS });
    const entry = (await a.vault.get(session.sid, Date.now()))!;
    const claims = await Promise.all([
      a.vault.claimRoleCheck(session.sid, entry.team!.roleCheckedAt, Date.now()),
      b.vault.claimRoleCheck(session.sid, entry.team!.roleCheckedAt, Date.now()),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});
