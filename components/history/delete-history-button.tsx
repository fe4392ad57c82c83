'use client';
/**
 * "Delete local history", confirmed in a dialog that says what goes: every record kept, from disk,
 * and the sync's settings. Searches over those days cost calls again afterwards.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useRef } from 'react';
import type { HistoryState } from '@/lib/history';
import { errorText } from '@/lib/http/api-client';
import { useWords } from '@/lib/i18n/use-words';
import { recordsText } from '@/lib/history';
import { deleteHistoryMutation } from '@/lib/history/client';
import modal from '../common/modal-dialog.module.css';
import styles from './history-controls.module.css';

export function DeleteHistoryButton({ state }: { state: HistoryState }) {
  const t = useTranslations('history.controls');
  const say = useWords();
  const client = useQueryClient();
  const remove = useMutation(deleteHistoryMutation(client));
  const dialog = useRef<HTMLDialogElement>(null);
  const nothingToDelete = state.records === 0 && !state.enabled;

  const open = () => {
    remove.reset();
    dialog.current?.showModal();
  };
  const close = () => dialog.current?.close();

  return (
    <>
      <button
        type="button"
        className="button"
        onClick={open}
        disabled={nothingToDelete}
        aria-haspopup="dialog"
        data-testid="history-delete"
      >
        {t('delete')}
      </button>
      <dialog
        ref={dialog}
        className={`${modal.dialog} ${styles.dialog}`}
        aria-labelledby="history-delete-title"
        aria-describedby="history-delete-text"
        data-testid="history-delete-dialog"
      >
        <h2 id="history-delete-title" className={styles.dialogTitle}>
          {t('deleteTitle')}
        </h2>
        <p id="history-delete-text">{t('deleteText', { records: say(recordsText(state.records)) })}</p>
        {remove.isError ? (
          <p className={styles.error} role="alert">
            {errorText(remove.error)}
          </p>
        ) : null}
        <div className={styles.dialogActions}>
          <button type="button" className="button" onClick={close} autoFocus>
            {t('keep')}
          </button>
          <button
            type="button"
            className={`button ${styles.danger}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: close })}
            data-testid="history-delete-confirm"
          >
            {remove.isPending ? t('deleting') : t('delete')}
          </button>
        </div>
      </dialog>
    </>
  );
}
