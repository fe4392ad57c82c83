/**
 * The test OpenID Connect provider (./oidc-provider.ts) as a program of its own: the e2e suite
 * starts it as a web server (playwright.config.ts), and it serves a demo's team mode too.
 *
 *   npx tsx tests/support/oidc-provider-cli.ts --port 4120 --redirect http://localhost:3000/api/auth/callback/oidc
 *
 * It prints its issuer, client and people; each person's password is `<login>-password`.
 */
import { parseArgs } from 'node:util';
import { passwordOf, startOidcProvider, TEST_PEOPLE } from './oidc-provider';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4120' },
    redirect: { type: 'string', multiple: true, default: ['http://localhost:3000/api/auth/callback/oidc'] },
  },
});

void startOidcProvider({ port: Number(values.port), redirectUris: values.redirect }).then((idp) => {
  console.log(`test identity provider on ${idp.issuer}`);
  console.log(`  OIDC_ISSUER=${idp.issuer} OIDC_CLIENT_ID=${idp.clientId} OIDC_CLIENT_SECRET=${idp.clientSecret}`);
  console.log(`  callbacks: ${values.redirect.join(', ')}`);
  for (const p of TEST_PEOPLE)
    console.log(`  ${p.login} / ${passwordOf(p.login)}: ${p.name}, groups ${p.groups.join(', ')}`);
  const stop = () => void idp.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
});
