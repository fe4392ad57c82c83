'use client';
/**
 * The price of pressing Search, said before it is pressed: "Uses 1 of 7 calls left this hour",
 * "From cache, 3 min old: no upstream call", or how long until the next free call.
 */
import { useQuery } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useWords } from '@/lib/i18n/use-words';
import { planQueryOptions } from '@/lib/search/client';
import { formatCountdown } from '@/lib/i18n/format';
import { quotaWaitUntil } from '@/lib/governor';
import { planVerdict } from '@/lib/search';
import { useCountdown } from '../common/use-countdown';
import { useDebounced } from '../common/use-debounced';
import type { ReactNode } from 'react';
import styles from './search-form.module.css';

/** `params`: the search's canonical query string, or null while the form has problems. */
export function SearchCost({ params }: { params: string | null }) {
  const t = useTranslations('search.plan');
  const say = useWords();
  const locale = useLocale();
  const settled = useDebounced(params, 300);
  const { data, isError, refetch } = useQuery({ ...planQueryOptions(settled ?? ''), enabled: settled !== null });
  // When no call is free, count down to the next one and ask for the price again then.
  const wait = useCountdown(data ? quotaWaitUntil(data.quota) : null, () => void refetch()) ?? 0;

  let body: ReactNode;
  let tone = 'neutral';
  if (params === null) body = t('correct');
  else if (isError && !data) body = t('failed');
  else if (!data) body = t('checking');
  else {
    const verdict = planVerdict(data, wait, locale);
    tone = verdict.kind;
    body =
      verdict.kind === 'waits' ? (
        <>
          {say(verdict.words)}{' '}
          <span className="mono" role="timer">
            {formatCountdown(wait)}
          </span>
          .
        </>
      ) : (
        say(verdict.words)
      );
  }
  return (
    <p className={styles.cost} data-tone={tone} data-testid="search-cost" aria-live="polite">
      {body}
    </p>
  );
}
