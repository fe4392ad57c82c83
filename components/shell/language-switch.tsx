'use client';
/**
 * 日本語 / English: the interface's language, remembered by the browser (the `sms-locale` cookie,
 * lib/i18n/locales.ts) ahead of what it asks for. The view stays as it is: the same URL is drawn
 * again by the server in the other language (router.refresh), the page's state and the data
 * already fetched kept, no upstream call spent. Each name is written in its own language and
 * marked so (`lang`), for a reader who cannot read the current one.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { LOCALE_NAMES, LOCALES, localeCookie, type Locale } from '@/lib/i18n/locales';
// The same two-way switch as UTC/JST beside it.
import styles from '../common/zone-toggle.module.css';

/** Remembers the choice for this browser: every page of it, and the API's answers, follow it. */
function remember(locale: Locale): void {
  document.cookie = localeCookie(locale, window.location.protocol === 'https:');
}

export function LanguageSwitch() {
  const locale = useLocale();
  const t = useTranslations('common.language');
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const choose = (next: Locale) => {
    if (next === locale) return;
    remember(next);
    startTransition(() => router.refresh());
  };
  return (
    <div className={styles.toggle} role="radiogroup" aria-label={t('label')} aria-busy={pending || undefined}>
      {LOCALES.map((l) => (
        <button
          key={l}
          type="button"
          role="radio"
          aria-checked={l === locale}
          lang={l}
          className={styles.option}
          title={t('switchTo', { language: LOCALE_NAMES[l] })}
          onClick={() => choose(l)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
              e.preventDefault();
              const next = LOCALES[(LOCALES.indexOf(l) + 1) % LOCALES.length]!;
              choose(next);
              (e.currentTarget.parentElement?.querySelector(`[lang="${next}"]`) as HTMLElement | null)?.focus();
            }
          }}
          tabIndex={l === locale ? 0 : -1}
        >
          {LOCALE_NAMES[l]}
        </button>
      ))}
    </div>
  );
}
