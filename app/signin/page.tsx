import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { signInErrorText } from '@/lib/auth';
import { signedInAlready } from '@/lib/root/page-session';
import { openedFromAnotherSite } from '@/lib/root/page-intent';
import { SignInForm } from './sign-in-form';
import { getTranslations } from 'next-intl/server';
import { getConfig } from '@/lib/config';
import { OidcSignInButton } from '@/components/team/oidc-sign-in-button';
import teamStyles from '@/components/team/team.module.css';
import styles from './signin.module.css';

export const metadata: Metadata = { title: 'Sign in · SMS history' };
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
  const config = getConfig();
  const team = config.OIDC_ISSUER ? { name: config.OIDC_NAME } : null;
  const tTeam = await getTranslations('team.signIn');
  return (
    <main className={styles.page}>
      <section className={styles.card} aria-labelledby="signin-title">
        <h1 id="signin-title" className={styles.title}>
          SMS transaction history
        </h1>
        {/* Team mode: the organisation's identity provider first, the own-account sign-in beside it. */}
        {team ? (
          <>
            <p className={styles.lead}>{tTeam('lead')}</p>
            <OidcSignInButton name={team.name} callbackUrl={target} />
            <p className={teamStyles.or}>{tTeam('or')}</p>
          </>
        ) : (
          <p className={styles.lead}>Sign in with the API key and secret of your Report API account.</p>
        )}
        {/* Only the app's own text for the code: `?error=` is anyone's to write. */}
        <SignInForm
          callbackUrl={target}
          initialError={error === undefined ? undefined : signInErrorText(String(error))}
          holdTarget={await openedFromAnotherSite()}
        />
        <p className={styles.note}>
          Your secret is checked with the Report API and kept on this server only, sealed, to renew the 15-minute access
          token while you work. It is deleted when you sign out.
        </p>
      </section>
    </main>
  );
}
