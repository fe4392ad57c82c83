import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

/** The features (lib/<feature>/): reached from outside only through index.ts and server.ts. */
const FEATURES = [
  'auth',
  'background',
  'cache',
  'exports',
  'governor',
  'history',
  'insights',
  'lookup',
  'metrics',
  'reconcile',
  'search',
  'upstream',
];
const FEATURE_INTERNALS = FEATURES.flatMap((f) => [`@/lib/${f}/*`, `!@/lib/${f}/server`, `!@/lib/${f}/client`]);
const FEATURE_MESSAGE =
  'Reach a feature through its entry: `@/lib/<feature>` (safe anywhere), `@/lib/<feature>/client` (React Query options, URL parsers) or `@/lib/<feature>/server` (server-only); add what you need there.';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.next-*/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/out/**',
      'next-env.d.ts',
    ],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Pages and route handlers reach a feature only through its entry files: `@/lib/<feature>` (safe
    // anywhere), `/client` (the browser's) or `/server` (server-only); the kernel's folders are open
    // (tests/architecture.test.ts holds the same rules for lib/ itself).
    files: ['app/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: FEATURE_INTERNALS, message: FEATURE_MESSAGE }] }],
    },
  },
  {
    // Components are shared by pages and run in the browser: a feature's browser-safe entry only, and
    // never the composition root (only app/ and the startup hook build services).
    files: ['components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: FEATURE_INTERNALS, message: FEATURE_MESSAGE },
            {
              group: ['@/lib/*/server', '**/lib/*/server'],
              message:
                "A feature's server entry is for the server; components use `@/lib/<feature>` (browser-safe) and read data through the API.",
            },
            {
              group: ['@/lib/root', '@/lib/root/*', '**/lib/root/*'],
              message: 'Components get what they need as props or from the API; the composition root is for app/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The simulator is its own program: the app reaches it only over HTTP. Tests may start it.
    files: ['lib/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/simulator', '**/simulator/*'],
              message: 'lib/ talks to the upstream (or the simulator) only over HTTP.',
            },
          ],
        },
      ],
    },
  },
];

export default config;
