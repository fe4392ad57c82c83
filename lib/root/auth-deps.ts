import 'server-only';
/**
 * What next-auth's options are built from (lib/auth/options.ts), out of the process's services:
 * sessions read through the services' vault (a team session's secret is its account's), and team
 * mode's sign-in with the identity provider when it is configured.
 */
import type { AuthDeps } from '../auth/server';
import type { Services } from './services';

export function authDepsOf(services: Services, attempt?: AuthDeps['attempt']): AuthDeps {
  return {
    gateway: services.gateway,
    config: services.config,
    store: { vault: services.vault },
    teamSignIn: services.team.signIn(),
    ...(attempt ? { attempt } : {}),
  };
}
