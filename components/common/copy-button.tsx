'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import styles from './copy-button.module.css';

type State = 'idle' | 'copied' | 'failed';

export interface CopyButtonProps {
  /** What is copied; a function is read at click time (e.g. the page's current URL). */
  value: string | (() => string);
  /** What it is, in the page's language, for "Copy <label>". */
  label: string;
  /** Shown beside the icon; without it the button is an icon with an accessible name. */
  text?: string;
  tabbable?: boolean;
}

/** Copies a value to the clipboard and says so, to the eye and to screen readers. */
export function CopyButton({ value, label, text, tabbable = true }: CopyButtonProps) {
  const t = useTranslations('detail.copy');
  const [state, setState] = useState<State>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 1600);
    return () => window.clearTimeout(timer);
  }, [state]);

  async function copy(event: React.MouseEvent) {
    // Inside a table row, a click on the button must not also open the row.
    event.stopPropagation();
    try {
      await navigator.clipboard.writeText(typeof value === 'function' ? value() : value);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <button
      type="button"
      className={styles.copy}
      data-state={state}
      onClick={copy}
      onKeyDown={(e) => e.stopPropagation()}
      tabIndex={tabbable ? undefined : -1}
      aria-label={text ? undefined : t('label', { label })}
      title={t('label', { label })}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" width="13" height="13">
        {state === 'copied' ? (
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="1.8" />
        ) : (
          <path
            d="M5 2.5h6.5A1.5 1.5 0 0 1 13 4v7.5M3.5 5h6A1.5 1.5 0 0 1 11 6.5v6A1.5 1.5 0 0 1 9.5 14h-6A1.5 1.5 0 0 1 2 12.5v-6A1.5 1.5 0 0 1 3.5 5z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.3"
          />
        )}
      </svg>
      {text ? <span className={styles.text}>{text}</span> : null}
      <span className={styles.status} aria-live="polite">
        {state === 'copied' ? t('copied') : state === 'failed' ? t('failed') : ''}
      </span>
    </button>
  );
}
