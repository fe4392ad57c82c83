'use client';

import { useRouter } from 'next/navigation';
import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useRef, useState, type FormEvent } from 'react';
import { signInProblems, type SignInInput } from '@/lib/auth';
import { signInError } from '@/lib/auth';
import type { Message } from '@/lib/i18n/message';
import { useWords } from '@/lib/i18n/use-words';
import { holdNextView } from '@/lib/search';
import styles from './signin.module.css';

/** `holdTarget`: this page was opened from another site, so the page signed in to waits for the person (lib/search/held-after-sign-in.ts). */
export function SignInForm({
  callbackUrl,
  initialError,
  holdTarget = false,
}: {
  callbackUrl: string;
  initialError?: Message;
  holdTarget?: boolean;
}) {
  const t = useTranslations('signin');
  const say = useWords();
  const router = useRouter();
  const [problems, setProblems] = useState<Partial<Record<keyof SignInInput, Message>>>({});
  // Kept as words, not text: a switch of language redraws them in the other one.
  const [error, setError] = useState<Message | undefined>(initialError);
  const [pending, setPending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // The button is disabled while the Report API checks the key, which drops focus to the page:
  // after an answer, focus goes where the person types next (also for keyboard and screen-reader use).
  const focusField = (name: keyof SignInInput) =>
    requestAnimationFrame(() => form.current?.querySelector<HTMLInputElement>(`#${name}`)?.focus());

  /** The fields as they stand: read from the form, not kept in state, so nothing typed or autofilled before the page's script ran is lost. */
  const readInput = (): SignInInput => {
    const data = new FormData(form.current!);
    const text = (name: keyof SignInInput) => String(data.get(name) ?? '');
    return { apiKey: text('apiKey'), apiSecret: text('apiSecret'), enterpriseId: text('enterpriseId') };
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = readInput();
    const found = signInProblems(input);
    setProblems(found);
    const firstProblem = (Object.keys(input) as (keyof SignInInput)[]).find((name) => found[name]);
    if (firstProblem) {
      // The fields' own problems replace an earlier refusal (or the link's ?error=).
      setError(undefined);
      focusField(firstProblem);
      return;
    }
    setPending(true);
    setError(undefined);
    const result = await signIn('credentials', { ...input, redirect: false });
    setPending(false);
    if (!result || result.error) {
      setError(signInError(result?.error ?? 'CredentialsSignin'));
      // Keep the key, drop the secret: it was refused or must be typed again.
      const secret = form.current?.querySelector<HTMLInputElement>('#apiSecret');
      if (secret) secret.value = '';
      focusField('apiSecret');
      return;
    }
    if (holdTarget) holdNextView(callbackUrl);
    router.replace(callbackUrl);
    router.refresh();
  }

  const field = (name: keyof SignInInput, label: string, type: string, autoComplete: string, hint?: string) => (
    <div className={styles.field}>
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue=""
        aria-invalid={problems[name] ? true : undefined}
        aria-describedby={problems[name] ? `${name}-problem` : hint ? `${name}-hint` : undefined}
      />
      {problems[name] ? (
        <p id={`${name}-problem`} className={styles.problem}>
          {say(problems[name]!)}
        </p>
      ) : hint ? (
        <p id={`${name}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
    </div>
  );

  return (
    // method="post": submitted before the script takes over, the secret goes in a body, never in a URL.
    <form ref={form} className={styles.form} method="post" onSubmit={submit} noValidate>
      {field('apiKey', t('fields.apiKey'), 'text', 'username')}
      {field('apiSecret', t('fields.apiSecret'), 'password', 'current-password')}
      {field('enterpriseId', t('fields.enterpriseId'), 'text', 'organization', t('fields.enterpriseIdHint'))}
      {error ? (
        <p role="alert" className={styles.error}>
          {say(error)}
        </p>
      ) : null}
      <button type="submit" className={styles.submit} disabled={pending}>
        {pending ? t('checking') : t('submit')}
      </button>
    </form>
  );
}
