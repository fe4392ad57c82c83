/**
 * Readiness names the check that fails: background runners not running, a migration missing from
 * the store, a store that does not answer; and is ready when all hold. Through the real services.
 */
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../tests/support/backends';
import { startHarnessOn } from '../../tests/support/harness-on';
import type { Harness } from '../../tests/support/service-harness';
import { readiness } from './readiness';

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close().catch(() => undefined);
});

describe.each(BACKENDS)('readiness on %s', (dialect) => {
  it('names the failing check, and is ready once every one holds', async () => {
    const h = await startHarnessOn(dialect);
    harnesses.push(h);
    const services = async () => h;
    // Built, but the runners not started (as before the startup hook's start()).
    expect(await readiness(services)).toEqual({ ready: false, failing: 'background' });
    h.start();
    await new Promise((r) => setTimeout(r, 50));
    expect(await readiness(services)).toEqual({ ready: true });

    // A migration of this version missing from the store (a database swapped underneath).
    const [last] = (
      await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(h.store.db)
    ).rows;
    await sql`delete from kysely_migration where name = ${last!.name}`.execute(h.store.db);
    expect(await readiness(services)).toEqual({ ready: false, failing: 'migrations' });
    await sql`insert into kysely_migration (name, timestamp) values (${last!.name}, ${new Date().toISOString()})`.execute(
      h.store.db,
    );
    expect(await readiness(services)).toEqual({ ready: true });

    // Services that cannot be built (the database out of reach at start).
    expect(await readiness(async () => Promise.reject(new Error('connect ECONNREFUSED')))).toEqual({
      ready: false,
      failing: 'store',
    });
    await h.stopBackground(100);
    expect(await readiness(services)).toEqual({ ready: false, failing: 'background' });
  });
});
