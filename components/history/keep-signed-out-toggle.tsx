'use client';
/**
 * "Keep syncing while I am signed out", with its price said beside it: the sync needs the account's
 * secret to renew its upstream token, so going on without a session means keeping that secret.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import type { HistoryState } from '@/lib/history';
import { errorText } from '@/lib/http/api-client';
import { updateHistoryMutation } from '@/lib/history/client';
import styles from './history-controls.module.css';

export function KeepSignedOutToggle({ state }: { state: HistoryState }) {
  const t = useTranslations('history.controls');
  const client = useQueryClient();
  const update = useMutation(updateHistoryMutation(client));

  return (
    <div className={styles.field}>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={state.keepSyncingSignedOut}
          disabled={update.isPending}
          // `enabled` is sent as it stands, so this box never starts or stops the sync by itself.
          onChange={(e) => update.mutate({ keepSyncingSignedOut: e.target.checked, enabled: state.enabled })}
          aria-describedby="history-signed-out-hint"
          data-testid="history-keep-signed-out"
        />
        {t('keepSignedOut')}
      </label>
      <p id="history-signed-out-hint" className={styles.hint}>
        {t('keepSignedOutHint')}
      </p>
      {update.isError ? (
        <p className={styles.error} role="alert">
          {errorText(update.error)}
        </p>
      ) : null}
    </div>
  );
}
