import { defineConfig } from 'vitest/config';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@': root,
      // `server-only` throws outside a React Server Components bundle; in tests it is a no-op.
      'server-only': path.join(root, 'tests/support/server-only-stub.ts'),
    },
  },
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', 'e2e/**', '.next/**', '.next-*/**', 'data/**'],
    environment: 'node',
    // The servers under test log at warn on purpose (upstream faults); keep the report readable.
    // Tests of the logger itself give it their own level and sink.
    // The tests talk to the API as a script does, with no Accept-Language: the English they assert
    // is the en catalogue's, so they run with DEFAULT_LOCALE=en (its own default, ja, is tested in
    // lib/config.test.ts; Japanese answers in lib/root/error-problems-locale.test.ts).
    env: { LOG_LEVEL: 'error', DEFAULT_LOCALE: 'en' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A throwaway PostgreSQL for the store's tests (or the server of TEST_DATABASE_URL).
    globalSetup: ['tests/support/postgres-global-setup.ts'],
  },
});
