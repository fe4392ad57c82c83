'use client';
/**
 * The audit log page (admins): filters in the URL (from, to and their zone, person, action, a phone
 * number), the entries newest first with older ones on request, and the filtered entries as CSV.
 * A number typed in any of the ways people write one finds its searches and reveals: the log keeps
 * only its keyed hash (lib/team/number-hash.ts).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { saveFile } from '@/lib/csv/save-file';
import { errorText } from '@/lib/http/api-client';
import { formatInstant } from '@/lib/i18n/format';
import { AUDIT_ACTIONS } from '@/lib/team';
import { auditCsvText, auditQueryOptions, peopleQueryOptions } from '@/lib/team/client';
import { ZONES, type Zone } from '@/lib/time/zones';
import { usePreferredZone } from '../common/preferred-zone';
import styles from './team.module.css';

const FILTERS = ['from', 'to', 'actor', 'action', 'number', 'tz'] as const;
type Filter = (typeof FILTERS)[number];

export function AuditView() {
  const t = useTranslations('team.audit');
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const preferred = usePreferredZone().zone;
  const applied = Object.fromEntries(FILTERS.map((f) => [f, search.get(f) ?? ''])) as Record<Filter, string>;
  const zone: Zone = (ZONES as readonly string[]).includes(applied.tz) ? (applied.tz as Zone) : preferred;
  const params = new URLSearchParams(Object.entries({ ...applied, tz: zone }).filter(([, v]) => v !== '')).toString();
  const [draft, setDraft] = useState(applied);
  const [csvBusy, setCsvBusy] = useState(false);
  const [csvError, setCsvError] = useState<string | null>(null);
  const entries = useInfiniteQuery(auditQueryOptions(params));
  const people = useQuery(peopleQueryOptions());

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams(Object.entries(draft).filter(([, v]) => v.trim() !== ''));
    router.replace(`${pathname}${next.size > 0 ? `?${next.toString()}` : ''}`);
  };
  // A select's name is said by aria-label: from its wrapping label alone, a screen reader (and a
  // test) would hear every option's text after it.
  const input = (name: Filter, label: string, type = 'text', hint?: string) => (
    <label>
      {label}
      <input
        className="control"
        name={name}
        type={type}
        value={draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        {...(hint ? { title: hint } : {})}
      />
    </label>
  );
  const rows = entries.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{t('title')}</h1>
      <p className={styles.intro}>{t('intro')}</p>
      <form className={`panel ${styles.filters}`} onSubmit={apply} aria-label={t('title')}>
        {input('from', t('from'), 'date')}
        {input('to', t('to'), 'date')}
        <label>
          {t('zone')}
          <select
            className="control"
            name="tz"
            aria-label={t('zone')}
            value={draft.tz || zone}
            onChange={(e) => setDraft({ ...draft, tz: e.target.value })}
          >
            {ZONES.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('actor')}
          <select
            className="control"
            name="actor"
            aria-label={t('actor')}
            value={draft.actor}
            onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
          >
            <option value="">{t('anyone')}</option>
            {(people.data?.people ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('action')}
          <select
            className="control"
            name="action"
            aria-label={t('action')}
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.target.value })}
          >
            <option value="">{t('anyAction')}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {t(`actions.${a}`)}
              </option>
            ))}
          </select>
        </label>
        {input('number', t('number'), 'text', t('numberHint'))}
        <button type="submit" className="button button-primary" data-testid="audit-apply">
          {t('apply')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setDraft(Object.fromEntries(FILTERS.map((f) => [f, ''])) as Record<Filter, string>);
            router.replace(pathname);
          }}
        >
          {t('clear')}
        </button>
        <button
          type="button"
          className="button"
          disabled={csvBusy}
          data-testid="audit-csv"
          onClick={() => {
            setCsvBusy(true);
            setCsvError(null);
            auditCsvText(params).then(
              (text) => {
                setCsvBusy(false);
                saveFile({ text, fileName: `audit_${new Date().toISOString().slice(0, 10)}.csv` });
              },
              (err: unknown) => {
                setCsvBusy(false);
                setCsvError(errorText(err));
              },
            );
          }}
        >
          {csvBusy ? t('csvBusy') : t('csv')}
        </button>
      </form>
      {csvError ? (
        <p role="alert" className={styles.error}>
          {csvError}
        </p>
      ) : null}
      {entries.isError ? (
        <p role="alert" className={styles.error} data-testid="audit-error">
          {errorText(entries.error)}
        </p>
      ) : null}
      {entries.isPending ? <p aria-busy="true">{t('loading')}</p> : null}
      {entries.data && rows.length === 0 ? <p data-testid="audit-empty">{t('empty')}</p> : null}
      {rows.length > 0 ? (
        <div className={`panel ${styles.tableWrap}`}>
          <table className={styles.table} data-testid="audit-table">
            <thead>
              <tr>
                <th scope="col">{t('at')}</th>
                <th scope="col">{t('who')}</th>
                <th scope="col">{t('what')}</th>
                <th scope="col">{t('account')}</th>
                <th scope="col">{t('trxId')}</th>
                <th scope="col">{t('reason')}</th>
                <th scope="col">{t('query')}</th>
                <th scope="col">{t('detail')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id} data-action={e.action}>
                  <td className={styles.number}>
                    {formatInstant(new Date(e.at), zone)} {zone}
                  </td>
                  <td>
                    {e.actorName}
                    <span className={styles.role}> {e.role}</span>
                  </td>
                  <td>
                    {(AUDIT_ACTIONS as readonly string[]).includes(e.action)
                      ? t(`actions.${e.action as (typeof AUDIT_ACTIONS)[number]}`)
                      : e.action}
                  </td>
                  <td>{e.account ?? ''}</td>
                  <td>{e.trxId ? <code>{e.trxId}</code> : null}</td>
                  <td className={styles.wrap}>{e.reason ?? ''}</td>
                  <td className={styles.wrap}>{e.query ?? ''}</td>
                  <td className={styles.wrap}>{e.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {entries.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={entries.isFetchingNextPage}
          onClick={() => void entries.fetchNextPage()}
        >
          {t('older')}
        </button>
      ) : null}
    </div>
  );
}
