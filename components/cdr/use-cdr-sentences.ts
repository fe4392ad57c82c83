'use client';
/**
 * A status and a DLR error code explained in the page's language (messages/<locale>/cdr.json): what
 * it means and whether it can still change or a resend may help. The code itself stays beside it
 * wherever it is shown (the glossary's rule: raw codes stay visible).
 */
import { useTranslations } from 'next-intl';
import { explainDlrError } from '@/lib/cdr/dlr-errors';
import { statusInfo } from '@/lib/cdr/status';
import type { Messages } from '@/lib/i18n/messages-type';

export function useCdrSentences(): { status: (value: string) => string; dlr: (code: string) => string | null } {
  const t = useTranslations('cdr');
  return {
    status(value) {
      const info = statusInfo(value);
      if (!info) return value === '' ? t('statusNone') : t('statusUnknown', { value });
      return `${t(`status.${info.value}.meaning`)} ${info.final ? t('final') : t('inTransit')}`;
    },
    dlr(code) {
      if (code.trim() === '') return null;
      const known = explainDlrError(code);
      if (!known) return t('dlrUnknown');
      const key = String(Number(code)) as keyof Messages['cdr']['dlr'];
      const meaning = t(`dlr.${key}`);
      if (Number(code) === 0) return meaning;
      return `${meaning} ${known.permanent ? t('dlrPermanent') : t('dlrTemporary')}`;
    },
  };
}
