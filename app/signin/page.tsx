import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { redirect } from 'next/navigation';
import { signInError } from '@/lib/auth';
import { LanguageSwitch } from '@/components/shell/language-switch';
import { signedInAlready } from '@/lib/root/page-session';
import { openedFromAnotherSite } from '@/lib/root/page-intent';
import { SignInForm } from './sign-in-form';
import { getConfig } from '@/lib/config';
import { OidcSignInButton } from '@/components/team/oidc-sign-in-button';
import teamStyles from '@/components/team/team.module.css';
import styles from './signin.module.css';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('signin'))('pageTitle') };
}
export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ callbackUrl?: string; error?: string | string[] }> };

/** Only paths of this site: a callbackUrl elsewhere would make the sign-in page an open redirect. */
function safeCallback(raw: string | undefined): string {
  if (!raw) return '/transactions';
  try {
    const url = new URL(raw, 'http://local');
    if (url.origin !== 'http://local' || url.pathname.startsWith('//')) return '/transactions';
    return `${url.pathname}${url.search}` || '/transactions';
  } catch {
    return '/transactions';
  }
}

export default async function SignInPage({ searchParams }: Props) {
  const { callbackUrl, error } = await searchParams;
  const target = safeCallback(callbackUrl);
  // Signed in already, another site's link goes on to its page, which sees where it came from itself.
  if (await signedInAlready()) redirect(target);
  const t = await getTranslations('signin');
  const config = getConfig();
  const team = config.OIDC_ISSUER ? { name: config.OIDC_NAME } : null;
  const tTeam = await getTranslations('team.signIn');
  return (
    <main className={styles.page}>
      <div className={styles.language}>
        <LanguageSwitch />
      </div>
      <section className={styles.card} aria-labelledby="signin-title">
        <h1 id="signin-title" className={styles.title}>
          {t('title')}
        </h1>
        {/* Team mode: the organisation's identity provider first, the own-account sign-in beside it. */}
        {team ? (
          <>
            <p className={styles.lead}>{tTeam('lead')}</p>
            <OidcSignInButton name={team.name} callbackUrl={target} />
            <p className={teamStyles.or}>{tTeam('or')}</p>
          </>
        ) : (
          <p className={styles.lead}>{t('lead')}</p>
        )}
        {/* Only the app's own words for the code: `?error=` is anyone's to write. */}
        <SignInForm
          callbackUrl={target}
          initialError={error === undefined ? undefined : signInError(String(error))}
          holdTarget={await openedFromAnotherSite()}
        />
        <p className={styles.note}>{t('note')}</p>
      </section>
    </main>
  );
}
