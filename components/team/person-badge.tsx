'use client';
/**
 * Who is signed in, in the header, in team mode: the person's name and role, and the team account
 * they work on — a choice when the team has several (the next request works on the one chosen).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { errorText } from '@/lib/http/api-client';
import type { Role } from '@/lib/team';
import { switchAccount, teamSessionQueryOptions } from '@/lib/team/client';
import styles from './team.module.css';

export function PersonBadge({ name, role, account }: { name: string; role: Role; account: string }) {
  const t = useTranslations('team');
  const id = useId();
  const router = useRouter();
  const client = useQueryClient();
  const session = useQuery(teamSessionQueryOptions());
  const [problem, setProblem] = useState<string | null>(null);
  const accounts = session.data?.accounts ?? [];

  return (
    <div className={styles.person} data-testid="person-badge">
      <span title={t('header.person', { name, role: t(`roles.${role}`) })}>{name}</span>
      <span className={styles.role} data-testid="person-role">
        {t(`roles.${role}`)}
        {accounts.length > 1 ? null : ` · ${account}`}
      </span>
      {accounts.length > 1 ? (
        <>
          <label htmlFor={`${id}-account`} className="visually-hidden">
            {t('header.switchAccount')}
          </label>
          <select
            id={`${id}-account`}
            className="control"
            value={session.data?.current ?? ''}
            onChange={(e) => {
              setProblem(null);
              switchAccount(e.target.value).then(
                () => {
                  // Everything on screen was the other account's.
                  void client.invalidateQueries();
                  router.refresh();
                },
                (err: unknown) => setProblem(errorText(err)),
              );
            }}
          >
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
        </>
      ) : null}
      {problem ? (
        <span role="alert" className={styles.error}>
          {problem}
        </span>
      ) : null}
    </div>
  );
}
