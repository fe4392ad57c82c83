'use client';
/**
 * "Delete local copy", confirmed in a dialog that says what goes: every record kept, from disk, and
 * the copy's settings. Searches over those days cost calls again afterwards.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { HistoryState } from '@/lib/history';
import { errorText } from '@/lib/http/api-client';
import { recordsText } from '@/lib/history';
import { deleteHistoryMutation } from '@/lib/history/client';
import modal from '../common/modal-dialog.module.css';
import styles from './history-controls.module.css';

export function DeleteHistoryButton({ state }: { state: HistoryState }) {
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
        Delete local copy
      </button>
      <dialog
        ref={dialog}
        className={`${modal.dialog} ${styles.dialog}`}
        aria-labelledby="history-delete-title"
        aria-describedby="history-delete-text"
        data-testid="history-delete-dialog"
      >
        <h2 id="history-delete-title" className={styles.dialogTitle}>
          Delete the local copy?
        </h2>
        <p id="history-delete-text">
          The {recordsText(state.records)} kept on this server are deleted from disk and the copy stops. Searches over
          those days cost upstream calls again, and copying them again costs calls too.
        </p>
        {remove.isError ? (
          <p className={styles.error} role="alert">
            {errorText(remove.error)}
          </p>
        ) : null}
        <div className={styles.dialogActions}>
          <button type="button" className="button" onClick={close} autoFocus>
            Keep it
          </button>
          <button
            type="button"
            className={`button ${styles.danger}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: close })}
            data-testid="history-delete-confirm"
          >
            {remove.isPending ? 'Deleting…' : 'Delete local copy'}
          </button>
        </div>
      </dialog>
    </>
  );
}
