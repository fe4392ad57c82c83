'use client';
/**
 * The sync's start day and its Start / Pause. The day typed is sent with Start, so choosing a day
 * and pressing Start is one step; while the sync runs, "Set start day" moves it. The server judges
 * the day (within HISTORY_MAX_DAYS, not in the future): its message is shown beside the field.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { HistorySettingsInput, HistoryState } from '@/lib/history';
import { ApiError, errorText } from '@/lib/http/api-client';
import { updateHistoryMutation } from '@/lib/history/client';
import styles from './history-controls.module.css';

/** The field follows the server's start day whenever that changes; in between it holds what is typed. */
function useStartDayDraft(since: string): [string, (value: string) => void] {
  const [draft, setDraft] = useState({ since, value: since });
  if (draft.since !== since) setDraft({ since, value: since });
  return [draft.value, (value) => setDraft({ since, value })];
}

export function HistorySettingsForm({ state }: { state: HistoryState }) {
  const t = useTranslations('history.controls');
  const client = useQueryClient();
  const update = useMutation(updateHistoryMutation(client));
  const [since, setSince] = useStartDayDraft(state.since);
  // From HISTORY_MAX_DAYS back to today, as the server's clock counts them.
  const bounds = state.sinceBounds;
  const problem = update.error instanceof ApiError ? update.error.problem : null;
  const sinceError = problem?.errors?.since ?? null;
  const otherError = update.error && !sinceError ? errorText(update.error) : null;

  const send = (input: HistorySettingsInput) => update.mutate(input);

  return (
    <form
      className={styles.settingsForm}
      onSubmit={(e) => {
        e.preventDefault();
        // The start day alone: the sync stays as it is (started or not).
        send({ since, enabled: state.enabled });
      }}
    >
      <div className={styles.field}>
        <label htmlFor="history-since" className={styles.label}>
          {t('startDay')}
        </label>
        <div className={styles.inline}>
          <input
            id="history-since"
            name="since"
            type="date"
            className="control"
            value={since}
            min={bounds.min}
            max={bounds.max}
            required
            onChange={(e) => {
              setSince(e.target.value);
              if (update.isError) update.reset();
            }}
            aria-invalid={sinceError ? true : undefined}
            aria-describedby={sinceError ? 'history-since-hint history-since-error' : 'history-since-hint'}
            data-testid="history-since"
          />
          {state.enabled ? (
            <button
              type="submit"
              className="button"
              disabled={update.isPending || since === state.since}
              data-testid="history-set-since"
            >
              {t('setStartDay')}
            </button>
          ) : null}
        </div>
        <p id="history-since-hint" className={styles.hint}>
          {t('startDayHint', { maxDays: state.maxDays, min: bounds.min })}
        </p>
        {sinceError ? (
          <p id="history-since-error" className={styles.error} role="alert" data-testid="history-since-error">
            {sinceError}
          </p>
        ) : null}
      </div>

      <div className={styles.switch}>
        {state.enabled ? (
          <button
            type="button"
            className="button"
            onClick={() => send({ enabled: false })}
            disabled={update.isPending}
            data-testid="history-pause"
          >
            {t('pause')}
          </button>
        ) : (
          <button
            type="button"
            className="button button-primary"
            onClick={() => send({ enabled: true, since })}
            disabled={update.isPending}
            data-testid="history-start"
          >
            {t('start')}
          </button>
        )}
        {otherError ? (
          <p className={styles.error} role="alert">
            {otherError}
          </p>
        ) : null}
      </div>
    </form>
  );
}
