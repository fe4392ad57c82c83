'use client';
/**
 * The People page (admins): everyone who signed in through the identity provider, their role as it
 * last said, when they were last here, the upstream calls made for them in the last hour and day
 * on the team's accounts (the quota they share), their open sessions, and Suspend / Restore.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFormatter, useTranslations } from 'next-intl';
import { errorText } from '@/lib/http/api-client';
import { formatInstant } from '@/lib/i18n/format';
import { usePreferredZone } from '../common/preferred-zone';
import type { TeamPerson } from '@/lib/team';
import { peopleQueryOptions, setSuspended, TEAM_KEYS } from '@/lib/team/client';
import styles from './team.module.css';

export function PeopleTable({ self }: { self: string | null }) {
  const t = useTranslations('team');
  const format = useFormatter();
  const client = useQueryClient();
  const { zone } = usePreferredZone();
  const people = useQuery(peopleQueryOptions());
  const change = useMutation({
    mutationFn: ({ id, suspended }: { id: string; suspended: boolean }) => setSuspended(id, suspended),
    onSuccess: () => void client.invalidateQueries({ queryKey: TEAM_KEYS.people }),
  });

  const toggle = (p: TeamPerson) => {
    const suspending = p.suspendedAt === null;
    if (suspending && !window.confirm(t('people.confirmSuspend', { name: p.name }))) return;
    change.mutate({ id: p.id, suspended: suspending });
  };

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{t('people.title')}</h1>
      <p className={styles.intro}>{t('people.intro')}</p>
      {people.isError ? (
        <p role="alert" className={styles.error}>
          {errorText(people.error)}
        </p>
      ) : null}
      {change.isError ? (
        <p role="alert" className={styles.error}>
          {errorText(change.error)}
        </p>
      ) : null}
      {people.isPending ? <p aria-busy="true">{t('people.loading')}</p> : null}
      {people.data && people.data.people.length === 0 ? <p>{t('people.empty')}</p> : null}
      {people.data && people.data.people.length > 0 ? (
        <div className={`panel ${styles.tableWrap}`}>
          <table className={styles.table} data-testid="people-table">
            <thead>
              <tr>
                <th scope="col">{t('people.name')}</th>
                <th scope="col">{t('people.email')}</th>
                <th scope="col">{t('people.role')}</th>
                <th scope="col">{t('people.lastSeen')}</th>
                <th scope="col" className={styles.number}>
                  {t('people.callsHour')}
                </th>
                <th scope="col" className={styles.number}>
                  {t('people.callsDay')}
                </th>
                <th scope="col" className={styles.number}>
                  {t('people.sessions')}
                </th>
                <th scope="col">{t('people.status')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('people.suspend')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {people.data.people.map((p) => (
                <tr key={p.id} data-person={p.id}>
                  <th scope="row">
                    {p.name}
                    {p.id === self ? ` (${t('people.you')})` : ''}
                  </th>
                  <td>{p.email ?? ''}</td>
                  <td>{p.role ? t(`roles.${p.role}`) : t('people.noRole')}</td>
                  <td>
                    {formatInstant(new Date(p.lastSeenAt), zone)} {zone}
                  </td>
                  <td className={styles.number}>{format.number(p.calls.hour)}</td>
                  <td className={styles.number}>{format.number(p.calls.day)}</td>
                  <td className={styles.number}>{format.number(p.sessions)}</td>
                  <td className={p.suspendedAt ? styles.suspended : undefined} data-testid="person-status">
                    {p.suspendedAt ? t('people.suspended', { by: p.suspendedBy ?? '' }) : t('people.active')}
                  </td>
                  <td>
                    {p.id === self ? null : (
                      <button
                        type="button"
                        className={`button button-small ${p.suspendedAt ? '' : styles.danger}`}
                        disabled={change.isPending}
                        onClick={() => toggle(p)}
                        data-testid={p.suspendedAt ? 'restore-person' : 'suspend-person'}
                      >
                        {p.suspendedAt ? t('people.restore') : t('people.suspend')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
