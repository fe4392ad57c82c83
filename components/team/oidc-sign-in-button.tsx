'use client';
/**
 * "Sign in with <OIDC_NAME>": next-auth's sign-in with the organisation's identity provider (the
 * authorization code flow with PKCE and state, lib/auth/oidc.ts). Asked as next-auth's client asks
 * (a JSON answer, then the browser goes to the provider), not as a form posted to the dashboard:
 * the page's Content-Security-Policy keeps forms to this site, redirects included.
 */
import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import styles from './team.module.css';

export function OidcSignInButton({ name, callbackUrl }: { name: string; callbackUrl: string }) {
  const t = useTranslations('team.signIn');
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={`button button-primary ${styles.providerButton}`}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void signIn('oidc', { callbackUrl }).catch(() => setBusy(false));
      }}
      data-testid="oidc-sign-in"
    >
      {busy ? t('busy', { name }) : t('withProvider', { name })}
    </button>
  );
}
