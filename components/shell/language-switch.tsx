'use client';
/**
 * 日本語 / English: the interface's language, remembered by the browser (the `sms-locale` cookie,
 * lib/i18n/locales.ts) ahead of what it asks for. The view stays as it is: the same URL is drawn
 * again by the server in the other language (router.refresh), the page's state and the data
 * already fetched kept, no upstream call spent. Each name is written in its own language and
 * marked so (`lang`), for a reader who cannot read the current one. A team person's choice is kept
 * with their profile too (PUT /api/team/session), which comes first on every device they sign in
 * from: saved before the page is drawn again, so the server does not draw it in the profile's old one.
 */
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { LOCALE_NAMES, LOCALES, localeCookie, type Locale } from '@/lib/i18n/locales';
import { ChoiceSwitch } from '../common/choice-switch';
import { useOptionalAccount } from './account-context';

/** Remembers the choice for this browser: every page of it, and the API's answers, follow it. */
function remember(locale: Locale): void {
  document.cookie = localeCookie(locale, window.location.protocol === 'https:');
}

/** Saves a team person's choice with their profile (team mode's code loaded only then). */
const saveToProfile = (locale: Locale) =>
  import('@/lib/team/client').then(({ saveProfileLocale }) => saveProfileLocale(locale));

/**
 * What picking a language does, in order: the cookie first (this browser follows it at once); for a
 * team person, their profile, awaited — it comes first on the server, so the page drawn again
 * before it is saved would be in the profile's older language; then the page drawn again. A
 * profile not saved (offline) keeps its older choice, still first: the person picks again.
 */
export async function switchLocale(
  next: Locale,
  steps: {
    teamPerson: boolean;
    remember: (l: Locale) => void;
    save: (l: Locale) => Promise<unknown>;
    redraw: () => void;
  },
): Promise<void> {
  steps.remember(next);
  if (steps.teamPerson) await steps.save(next).catch(() => undefined);
  steps.redraw();
}

export function LanguageSwitch() {
  const locale = useLocale();
  const t = useTranslations('common.language');
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const teamPerson = Boolean(useOptionalAccount()?.person);
  return (
    <ChoiceSwitch
      label={t('label')}
      name="locale"
      value={locale}
      busy={pending}
      onChange={(next) =>
        startTransition(() =>
          switchLocale(next, { teamPerson, remember, save: saveToProfile, redraw: () => router.refresh() }),
        )
      }
      options={LOCALES.map((l) => ({
        value: l,
        label: LOCALE_NAMES[l],
        lang: l,
        title: t('switchTo', { language: LOCALE_NAMES[l] }),
      }))}
    />
  );
}
