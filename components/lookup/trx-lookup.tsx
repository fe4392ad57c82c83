'use client';
/**
 * The header's lookup box: a trx_id opens /transactions/<trx_id>, in whatever form it was pasted
 * (capitals, groups, a link: lib/cdr/trx-id.ts). What is wrong with the input is said before
 * anything is asked of the server, so a typo never spends an upstream call.
 */
import { useRouter, useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { Message } from '@/lib/i18n/message';
import { useWords } from '@/lib/i18n/use-words';
import { normaliseTrxId, trxIdProblem } from '@/lib/lookup';
import { PAGE_PATHS } from '@/lib/http/paths';
import { zoneOf } from '@/lib/query/page-url';
import styles from './trx-lookup.module.css';
import { usePreferredZone } from '../common/preferred-zone';

export function TrxLookup() {
  const router = useRouter();
  const searchParams = useSearchParams();
  const preferredZone = usePreferredZone().zone;
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<Message | null>(null);
  const t = useTranslations('lookup');
  const say = useWords();
  const id = useId();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const found = trxIdProblem(value);
    setProblem(found);
    if (found) return;
    const zone = zoneOf({ tz: searchParams.get('tz') }, preferredZone);
    router.push(PAGE_PATHS.transaction(normaliseTrxId(value), zone));
  }

  return (
    <form role="search" aria-label={t('label')} className={styles.form} onSubmit={submit} noValidate>
      <label htmlFor={`${id}-trx`} className="visually-hidden">
        {t('idLabel')}
      </label>
      <input
        id={`${id}-trx`}
        className={`control ${styles.input}`}
        placeholder={t('placeholder')}
        value={value}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          // Once a problem is on screen, keep it current as the person corrects the input.
          if (problem) setProblem(trxIdProblem(e.target.value));
        }}
      />
      <button type="submit" className="button">
        {t('open')}
      </button>
      {problem ? (
        <p id={`${id}-problem`} className={styles.problem} role="alert">
          {say(problem)}
        </p>
      ) : null}
    </form>
  );
}
