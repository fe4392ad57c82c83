/**
 * vitest globalSetup: the PostgreSQL server the tests use. TEST_DATABASE_URL (or DATABASE_URL) names
 * one of your own, on which each test file creates and drops a database of its own; without either,
 * a throwaway cluster is started for the run and removed after it (tests/support/postgres.ts).
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the test server (its `postgres` database). */
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (given) {
    project.provide('postgresAdminUrl', given);
    return undefined;
  }
  const server = await startPostgres();
  project.provide('postgresAdminUrl', server.url);
  return () => server.stop();
}
