'use client';
/**
 * "Reveal" (番号を表示) for a record a support person sees masked: a dialog asks why (at least 10
 * characters), and the record whole comes back from the server, which writes the reveal (who, when,
 * which record, why) on the audit log and keeps the person within their hourly limit. The record is
 * shown only where it was asked for, and goes when the drawer closes.
 */
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import type { Cdr } from '@/lib/cdr/schema';
import { errorText } from '@/lib/http/api-client';
import { REVEAL_REASON_MAX, REVEAL_REASON_MIN } from '@/lib/team';
import { revealRecord } from '@/lib/team/client';
import type { Zone } from '@/lib/time/zones';
import modal from '../common/modal-dialog.module.css';
import styles from './team.module.css';

export function RevealButton({
  trxId,
  zone,
  onRevealed,
}: {
  trxId: string;
  zone: Zone;
  onRevealed: (record: Cdr) => void;
}) {
  const t = useTranslations('team.reveal');
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const id = useId();
  const reveal = useMutation({ mutationFn: () => revealRecord(trxId, zone, reason.trim()) });
  const tooShort = reason.trim().length < REVEAL_REASON_MIN;

  const close = () => dialog.current?.close();
  const submit = () => {
    setTried(true);
    if (tooShort) return;
    reveal.mutate(undefined, {
      onSuccess: (record) => {
        close();
        onRevealed(record);
      },
    });
  };

  return (
    <>
      <button
        type="button"
        className="button button-small"
        title={t('hint')}
        aria-haspopup="dialog"
        onClick={() => {
          reveal.reset();
          setTried(false);
          dialog.current?.showModal();
        }}
        data-testid="reveal-button"
      >
        {t('button')}
      </button>
      <dialog
        ref={dialog}
        className={`${modal.dialog} ${styles.dialog}`}
        aria-labelledby={`${id}-title`}
        data-testid="reveal-dialog"
        // The drawer behind listens for ↑/↓ and Esc: this dialog's keys are its own.
        onKeyDown={(e) => e.stopPropagation()}
        onCancel={(e) => {
          e.stopPropagation();
        }}
      >
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <h2 id={`${id}-title`} className={styles.dialogTitle}>
            {t('title')}
          </h2>
          <p>{t('lead', { trxId })}</p>
          <div className={styles.field}>
            <label htmlFor={`${id}-reason`}>{t('reason')}</label>
            <textarea
              id={`${id}-reason`}
              name="reason"
              value={reason}
              maxLength={REVEAL_REASON_MAX}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={tried && tooShort}
              aria-describedby={`${id}-hint`}
              required
              autoFocus
              data-testid="reveal-reason"
            />
            <span id={`${id}-hint`} className={styles.hint}>
              {tried && tooShort
                ? t('tooShort', { min: REVEAL_REASON_MIN })
                : t('reasonHint', { min: REVEAL_REASON_MIN })}
            </span>
          </div>
          {reveal.isError ? (
            <p className={styles.error} role="alert" data-testid="reveal-error">
              {errorText(reveal.error)}
            </p>
          ) : null}
          <div className={styles.actions}>
            <button type="button" className="button" onClick={close}>
              {t('cancel')}
            </button>
            <button
              type="submit"
              className="button button-primary"
              disabled={reveal.isPending}
              data-testid="reveal-submit"
            >
              {reveal.isPending ? t('busy') : t('submit')}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
