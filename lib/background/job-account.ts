import 'server-only';
/**
 * The upstream account a background job calls as: the job's API key and enterprise, its token
 * renewed with the secret of a live session of that key (the session that made the job when it is
 * still open, else the newest; with `signInNeededSince`, only one signed in after it, since the
 * earlier ones' secret was refused). Null when no such session is open: the job waits for a
 * sign-in. A secret that cannot be opened (the server's secret changed) throws SignInNeededError.
 */
import type { VaultEntry, VaultStore } from '../auth/server';
import type { Message } from '../i18n/message';
import { translate } from '../i18n/translate';
import type { UpstreamAccount } from '../upstream/server';

/** The session's secret cannot be used: only a session signed in from now on can help. */
export class SignInNeededError extends Error {
  constructor(readonly words: Message) {
    super(translate('en', words));
    this.name = 'SignInNeededError';
  }
}

export interface BackgroundJobOwner {
  /** The API key. */
  account: string;
  sid: string;
  enterpriseId: string | null;
  signInNeededSince: number | null;
}

export async function backgroundAccount(
  vault: Pick<VaultStore, 'liveSession'>,
  secretOf: (entry: VaultEntry) => string | null,
  job: BackgroundJobOwner,
  now: number,
  /** What the job says when the secret cannot be opened, in its feature's words. */
  unreadable: Message,
): Promise<UpstreamAccount | null> {
  const entry = await vault.liveSession(job.account, now, {
    preferSid: job.sid,
    createdAfter: job.signInNeededSince,
  });
  if (!entry) return null;
  return {
    apiKey: job.account,
    enterpriseId: job.enterpriseId,
    credentials: async () => {
      const secret = secretOf(entry);
      if (secret === null) throw new SignInNeededError(unreadable);
      return { apiKey: job.account, secret };
    },
  };
}
