'use client';
/**
 * Signing out: of this browser (next-auth's sign-out, which also ends this session on the server),
 * or everywhere — every session of the API key, in every browser and script — and then this browser.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { apiRequest, errorText } from '@/lib/http/api-client';
import { API_PATHS, PAGE_PATHS, signInHref } from '@/lib/http/paths';
import styles from './sign-out-button.module.css';

async function signOutHere(callbackUrl: string): Promise<void> {
  // next-auth's client is loaded on the click, not with every page: it is ~10 kB gzip.
  const { signOut } = await import('next-auth/react');
  await signOut({ callbackUrl });
}

export function SignOutButton() {
  const t = useTranslations('shell.signOut');
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button button-small"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await signOutHere(PAGE_PATHS.signIn);
      }}
    >
      {busy ? t('busy') : t('button')}
    </button>
  );
}

export function SignOutEverywhereButton() {
  const t = useTranslations('shell.signOut');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="button button-small"
        disabled={busy}
        title={t('everywhereHint')}
        onClick={async () => {
          setBusy(true);
          setProblem(null);
          try {
            await apiRequest('POST', API_PATHS.signOutEverywhere);
          } catch (err) {
            setBusy(false);
            setProblem(errorText(err));
            return;
          }
          await signOutHere(signInHref(undefined, 'SignedOutEverywhere'));
        }}
      >
        {busy ? t('everywhereBusy') : t('everywhere')}
      </button>
      {problem ? (
        <span role="alert" className={styles.problem}>
          {problem}
        </span>
      ) : null}
    </>
  );
}
