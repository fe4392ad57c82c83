'use client';
/**
 * "Keep copying while I am signed out", with its price said beside it: the copy needs the account's
 * secret to renew its upstream token, so going on without a session means keeping that secret.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HistoryState } from '@/lib/history';
import { errorText } from '@/lib/http/api-client';
import { updateHistoryMutation } from '@/lib/history/client';
import styles from './history-controls.module.css';

export function KeepSignedOutToggle({ state }: { state: HistoryState }) {
  const client = useQueryClient();
  const update = useMutation(updateHistoryMutation(client));

  return (
    <div className={styles.field}>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={state.keepSyncingSignedOut}
          disabled={update.isPending}
          // `enabled` is sent as it stands, so this box never starts or stops the copy by itself.
          onChange={(e) => update.mutate({ keepSyncingSignedOut: e.target.checked, enabled: state.enabled })}
          aria-describedby="history-signed-out-hint"
          data-testid="history-keep-signed-out"
        />
        Keep copying while I am signed out
      </label>
      <p id="history-signed-out-hint" className={styles.hint}>
        Otherwise the copy goes on only while someone of this account is signed in. When this is on, the account&rsquo;s
        secret stays on the server after sign-out (sealed, so the copy can renew its upstream token) until you turn it
        off again.
      </p>
      {update.isError ? (
        <p className={styles.error} role="alert">
          {errorText(update.error)}
        </p>
      ) : null}
    </div>
  );
}
