'use client';
/**
 * The price of pressing Search, said before it is pressed: "Uses 1 of 7 calls left this hour",
 * "From cache, 3 min old: no upstream call", or how long until the next free call.
 */
import { useQuery } from '@tanstack/react-query';
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
  const settled = useDebounced(params, 300);
  const { data, isError, refetch } = useQuery({ ...planQueryOptions(settled ?? ''), enabled: settled !== null });
  // When no call is free, count down to the next one and ask for the price again then.
  const wait = useCountdown(data ? quotaWaitUntil(data.quota) : null, () => void refetch()) ?? 0;

  let body: ReactNode;
  let tone = 'neutral';
  if (params === null) body = 'Correct the highlighted fields to see what this search costs.';
  else if (isError && !data) body = 'Could not check what this search costs; Search will still tell you.';
  else if (!data) body = 'Checking what this search costs…';
  else {
    const verdict = planVerdict(data, wait);
    tone = verdict.kind;
    body =
      verdict.kind === 'waits' ? (
        <>
          {verdict.text}{' '}
          <span className="mono" role="timer">
            {formatCountdown(wait)}
          </span>
          .
        </>
      ) : (
        verdict.text
      );
  }
  return (
    <p className={styles.cost} data-tone={tone} data-testid="search-cost" aria-live="polite">
      {body}
    </p>
  );
}
