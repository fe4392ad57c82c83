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
    // The upstream client is reachable only through the governor (lib/server/upstream-gateway.ts).
    files: ['app/**', 'components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/lib/upstream', '@/lib/upstream/*', '**/lib/upstream', '**/lib/upstream/*'], message: 'Only the governor (lib/server/upstream-gateway.ts) may use the upstream client.' },
          ],
        },
      ],
    },
  },
];

export default config;
