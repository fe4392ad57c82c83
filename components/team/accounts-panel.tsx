'use client';
/**
 * The team's accounts (admins): each with its API key and enterprise, where it was configured and
 * when its secret was last set — never the secret — and the forms to add one, replace a secret
 * (rotating the team secret: README, "Team mode") or remove one added here.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { errorText } from '@/lib/http/api-client';
import { formatInstant } from '@/lib/i18n/format';
import type { TeamAccount } from '@/lib/team';
import { accountsQueryOptions, addAccount, removeAccount, replaceSecret, TEAM_KEYS } from '@/lib/team/client';
import { usePreferredZone } from '../common/preferred-zone';
import styles from './team.module.css';

function ReplaceSecret({ account, onDone }: { account: TeamAccount; onDone: (text: string) => void }) {
  const t = useTranslations('team.accounts');
  const id = useId();
  const client = useQueryClient();
  const [secret, setSecret] = useState('');
  const replace = useMutation({
    mutationFn: () => replaceSecret(account.id, secret),
    onSuccess: () => {
      setSecret('');
      onDone(t('replaced', { label: account.label }));
      void client.invalidateQueries({ queryKey: TEAM_KEYS.accounts });
    },
  });
  return (
    <form
      className={styles.inline}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        replace.mutate();
      }}
    >
      <label htmlFor={`${id}-secret`} className="visually-hidden">
        {t('newSecret')} ({account.label})
      </label>
      <input
        id={`${id}-secret`}
        className="control"
        type="password"
        autoComplete="new-password"
        placeholder={t('newSecret')}
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
        required
        data-testid="new-secret"
      />
      <button type="submit" className="button button-small" disabled={replace.isPending || secret === ''}>
        {t('replace')}
      </button>
      {replace.isError ? (
        <span role="alert" className={styles.error}>
          {errorText(replace.error)}
        </span>
      ) : null}
    </form>
  );
}

function AddAccount({ onDone }: { onDone: (text: string) => void }) {
  const t = useTranslations('team.accounts');
  const client = useQueryClient();
  const empty = { label: '', apiKey: '', enterpriseId: '', secret: '' };
  const [form, setForm] = useState(empty);
  const add = useMutation({
    mutationFn: () => addAccount(form),
    onSuccess: (added) => {
      setForm(empty);
      onDone(t('added', { label: added.label }));
      void client.invalidateQueries({ queryKey: TEAM_KEYS.accounts });
    },
  });
  const field = (name: keyof typeof empty, label: string, type = 'text') => (
    <label>
      {label}
      <input
        className="control"
        name={name}
        type={type}
        autoComplete={type === 'password' ? 'new-password' : 'off'}
        value={form[name]}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
        required={name === 'apiKey' || name === 'secret'}
      />
    </label>
  );
  return (
    <section className="panel" aria-labelledby="add-account-title">
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <h2 id="add-account-title" className={styles.dialogTitle}>
          {t('add')}
        </h2>
        {field('label', t('label'))}
        {field('apiKey', t('apiKey'))}
        {field('enterpriseId', t('enterpriseOptional'))}
        {field('secret', t('secret'), 'password')}
        <button type="submit" className="button button-primary" disabled={add.isPending}>
          {t('addSubmit')}
        </button>
        {add.isError ? (
          <p role="alert" className={styles.error}>
            {errorText(add.error)}
          </p>
        ) : null}
      </form>
    </section>
  );
}

export function AccountsPanel() {
  const t = useTranslations('team.accounts');
  const { zone } = usePreferredZone();
  const client = useQueryClient();
  const accounts = useQuery(accountsQueryOptions());
  const [said, setSaid] = useState('');
  const remove = useMutation({
    mutationFn: (id: string) => removeAccount(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: TEAM_KEYS.accounts }),
  });

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{t('title')}</h1>
      <p className={styles.intro}>{t('intro')}</p>
      <p role="status" className={styles.status} data-testid="accounts-status">
        {said}
      </p>
      {accounts.isError ? (
        <p role="alert" className={styles.error}>
          {errorText(accounts.error)}
        </p>
      ) : null}
      {remove.isError ? (
        <p role="alert" className={styles.error}>
          {errorText(remove.error)}
        </p>
      ) : null}
      {accounts.isPending ? <p aria-busy="true">{t('loading')}</p> : null}
      {accounts.data ? (
        <div className={`panel ${styles.tableWrap}`}>
          <table className={styles.table} data-testid="accounts-table">
            <thead>
              <tr>
                <th scope="col">{t('label')}</th>
                <th scope="col">{t('apiKey')}</th>
                <th scope="col">{t('enterpriseId')}</th>
                <th scope="col">{t('source')}</th>
                <th scope="col">{t('updated')}</th>
                <th scope="col">{t('replace')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('remove')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.data.accounts.map((a) => (
                <tr key={a.id} data-account={a.id}>
                  <th scope="row">{a.label}</th>
                  <td>
                    <code>{a.apiKey}</code>
                  </td>
                  <td>{a.enterpriseId ?? ''}</td>
                  <td>
                    {a.source === 'env' ? t('sourceEnv') : t('sourceAdmin')}
                    {a.source === 'env' ? <span className={styles.hint}> {t('envNote')}</span> : null}
                  </td>
                  <td>
                    {formatInstant(new Date(a.updatedAt), zone)} {zone}
                  </td>
                  <td>
                    <ReplaceSecret account={a} onDone={setSaid} />
                  </td>
                  <td>
                    {a.source === 'admin' ? (
                      <button
                        type="button"
                        className={`button button-small ${styles.danger}`}
                        disabled={remove.isPending}
                        onClick={() => {
                          if (window.confirm(t('confirmRemove', { label: a.label }))) remove.mutate(a.id);
                        }}
                      >
                        {t('remove')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <AddAccount onDone={setSaid} />
    </div>
  );
}
