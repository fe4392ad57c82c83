import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ['node_modules/**', '.next/**', '.next-*/**', 'data/**', 'test-results/**', 'playwright-report/**', 'bench/out/**', 'next-env.d.ts'],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Pages and components reach the server's parts only through route handlers and the
    // composition root: never the store, the governor or the upstream client themselves.
    files: ['app/**', 'components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/lib/upstream', '@/lib/upstream/*', '**/lib/upstream', '**/lib/upstream/*'], message: 'Only the gateway (lib/server/upstream-gateway.ts) may use the upstream client.' },
            { group: ['@/lib/store', '@/lib/store/*', '**/lib/store', '**/lib/store/*'], message: 'Pages and components read data through the API or lib/root, never the store.' },
            { group: ['@/lib/governor', '@/lib/governor/*', '**/lib/governor', '**/lib/governor/*'], message: 'Only the gateway talks to the governor.' },
          ],
        },
      ],
    },
  },
  {
    // Components are shared by pages; only app/ (routes, layouts) and the startup hook build services.
    files: ['components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/lib/upstream', '@/lib/upstream/*', '**/lib/upstream', '**/lib/upstream/*'], message: 'Only the gateway (lib/server/upstream-gateway.ts) may use the upstream client.' },
            { group: ['@/lib/store', '@/lib/store/*', '**/lib/store', '**/lib/store/*'], message: 'Pages and components read data through the API or lib/root, never the store.' },
            { group: ['@/lib/governor', '@/lib/governor/*', '**/lib/governor', '**/lib/governor/*'], message: 'Only the gateway talks to the governor.' },
            { group: ['@/lib/root', '@/lib/root/*', '**/lib/root/*'], message: 'Components get what they need as props or from the API; the composition root is for app/.' },
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
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/simulator', '**/simulator/*'], message: 'lib/ talks to the upstream (or the simulator) only over HTTP.' }] }],
    },
  },
];

export default config;
