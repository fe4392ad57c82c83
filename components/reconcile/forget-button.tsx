'use client';
/**
 * Forgets a reconciliation (its rows hold numbers: they go with it). A running one stops first.
 * Asked twice, so a slip of the mouse does not throw an answered list away.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { errorText } from '@/lib/http/api-client';
import { forgetReconciliationMutation } from '@/lib/reconcile/client';
import styles from './reconcile.module.css';

export function ForgetButton({
  id,
  onForgotten,
  running = false,
}: {
  id: string;
  onForgotten: () => void;
  running?: boolean;
}) {
  const t = useTranslations('reconcile.forget');
  const client = useQueryClient();
  const forget = useMutation(forgetReconciliationMutation(client));
  const [asked, setAsked] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button-ghost"
        disabled={forget.isPending}
        onClick={() => (asked ? forget.mutate(id, { onSuccess: onForgotten }) : setAsked(true))}
        data-testid="reconcile-forget"
      >
        {asked ? t('confirm') : running ? t('stop') : t('delete')}
      </button>
      {forget.error ? (
        <span className={styles.fieldError} role="alert">
          {errorText(forget.error)}
        </span>
      ) : null}
    </>
  );
}
