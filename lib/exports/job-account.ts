import 'server-only';
/**
 * Whose calls an export makes: the job's API key, its upstream token renewed with the secret of a
 * live signed-in session of that key (the vault's). None left: the export waits for a sign-in. The
 * rule is background work's, one for exports and reconciliations (lib/background/job-account.ts).
 */
import { backgroundAccount, SignInNeededError } from '../background/server';
import { msg } from '../i18n/message';
import type { UpstreamAccount } from '../upstream/server';
import type { ExportJobRecord } from './job-row';
import type { StepDeps } from './step-deps';

export { SignInNeededError };

export const SIGN_IN_MESSAGE =
  'Sign in again to continue: no signed-in session of this API key is left to renew the upstream token with.';

/** The account to call the upstream as, renewing its token with a live session's secret. */
export function accountFor(deps: StepDeps, job: ExportJobRecord): Promise<UpstreamAccount | null> {
  return backgroundAccount(deps.vault, deps.secretOf, job, deps.now(), msg('exports.job.secretUnreadable'));
}
