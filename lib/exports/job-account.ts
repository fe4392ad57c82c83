import { msg, type Message } from '../i18n/message';
import { translate } from '../i18n/translate';
import 'server-only';
/**
 * Whose calls an export makes: the job's API key, its upstream token renewed with the secret of a
 * live signed-in session of that key (the vault's). None left: the export waits for a sign-in.
 */
import type { UpstreamAccount } from '../upstream/server';
import type { ExportJobRecord } from './job-row';
import type { StepDeps } from './step-deps';

export const SIGN_IN_MESSAGE =
  'Sign in again to continue: no signed-in session of this API key is left to renew the upstream token with.';

/** The session's secret cannot be used: only a session signed in from now on can help. */
export class SignInNeededError extends Error {
  constructor(readonly words: Message) {
    super(translate('en', words));
    this.name = 'SignInNeededError';
  }
}

/** The account to call the upstream as, renewing its token with a live session's secret. */
export async function accountFor(deps: StepDeps, job: ExportJobRecord): Promise<UpstreamAccount | null> {
  const entry = await deps.vault.liveSession(job.account, deps.now(), {
    preferSid: job.sid,
    createdAfter: job.signInNeededSince,
  });
  if (!entry) return null;
  return {
    apiKey: job.account,
    enterpriseId: job.enterpriseId,
    credentials: async () => {
      const secret = deps.secretOf(entry);
      if (secret === null) throw new SignInNeededError(msg('exports.job.secretUnreadable'));
      return { apiKey: job.account, secret };
    },
  };
}
