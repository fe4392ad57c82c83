'use client';
/**
 * A DLR error code's meaning in the page's language (messages/<locale>/cdr.json), with whether a
 * resend can help: the words a support person needs beside the raw code.
 */
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { explainDlrError } from '@/lib/cdr/dlr-errors';

export function useDlrWords(): (code: string) => string | null {
  const t = useTranslations('cdr');
  return useCallback(
    (code: string) => {
      if (code.trim() === '') return null;
      const known = explainDlrError(code);
      if (!known) return t('dlrUnknown');
      const key = String(Number(code));
      const meaning = t(`dlr.${key}` as 'dlr.0');
      if (Number(code) === 0) return meaning;
      return `${meaning} ${known.permanent ? t('dlrPermanent') : t('dlrTemporary')}`;
    },
    [t],
  );
}
