'use client';
/**
 * The list to reconcile: a file (CSV or TSV, as a spreadsheet saves it) or lines pasted, what it
 * holds, the range to look in for rows without a send time, and what a bill said to expect. Sending
 * it plans the reconciliation and answers what the local history holds, spending nothing: the plan
 * says what the rest costs before anyone starts it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dsvFormat } from 'd3-dsv';
import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { ApiError, errorText } from '@/lib/http/api-client';
import { RECONCILE_KINDS, type ReconcileKind } from '@/lib/reconcile';
import { createReconciliationMutation } from '@/lib/reconcile/client';
import { fromInputValue } from '@/lib/search';
import { ZoneToggle } from '../common/zone-toggle';
import { usePreferredZone } from '../common/preferred-zone';
import styles from './reconcile.module.css';

type Source = 'file' | 'paste';

/** The first line's cells, to offer the columns by name (the server finds them the same way). */
function headerOf(text: string): string[] {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = first.includes('\t') ? '\t' : first.includes(';') && !first.includes(',') ? ';' : ',';
  return (dsvFormat(delimiter).parseRows(first)[0] ?? []).map((c) => c.trim());
}

export function UploadForm({ onCreated }: { onCreated: (id: string) => void }) {
  const t = useTranslations('reconcile.upload');
  const client = useQueryClient();
  const create = useMutation(createReconciliationMutation(client));
  const { zone } = usePreferredZone();
  const [tz, setTz] = useState(zone);
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File | null>(null);
  const [paste, setPaste] = useState('');
  const [columns, setColumns] = useState<string[]>([]);
  const [missing, setMissing] = useState(false);
  const ids = { file: useId(), paste: useId(), kind: useId(), column: useId(), from: useId(), to: useId() };
  const problems = create.error instanceof ApiError ? (create.error.problem.errors ?? {}) : {};
  const fieldError = (name: string) =>
    problems[name] ? (
      <span className={styles.fieldError} id={`${name}-error`} data-testid={`error-${name}`}>
        {problems[name]}
      </span>
    ) : null;

  async function chooseFile(next: File | null) {
    setFile(next);
    setMissing(false);
    // The header of a large file is in its first bytes: only those are read here.
    setColumns(next ? headerOf(await next.slice(0, 64 * 1024).text()) : []);
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const list = source === 'file' ? file : paste.trim() !== '' ? new Blob([paste], { type: 'text/plain' }) : null;
    if (!list) {
      setMissing(true);
      return;
    }
    const body = new FormData();
    // A paste goes as a file without a name (the server names the answer after the list then).
    if (list instanceof File) body.set('file', list, list.name);
    else body.set('file', list);
    for (const name of ['kind', 'column', 'expected-count', 'expected-cost', 'currency']) {
      const value = String(form.get(name) ?? '').trim();
      if (value !== '' && value !== 'auto') body.set(name, value);
    }
    for (const name of ['date-from', 'date-to']) {
      const value = fromInputValue(String(form.get(name) ?? ''));
      if (value !== '') body.set(name, value);
    }
    body.set('tz', tz);
    create.mutate(body, { onSuccess: (created) => onCreated(created.id) });
  }

  const shownColumns = source === 'file' ? columns : headerOf(paste);
  return (
    <form className={`panel ${styles.upload}`} onSubmit={submit} aria-labelledby={ids.file + '-heading'} noValidate>
      <h2 id={ids.file + '-heading'} className={styles.heading}>
        {t('heading')}
      </h2>
      <div className={styles.sourceChoice} role="radiogroup" aria-label={t('sourceLabel')}>
        {(['file', 'paste'] as const).map((s) => (
          <label key={s} className={styles.choice}>
            <input type="radio" name="source" value={s} checked={source === s} onChange={() => setSource(s)} />
            {t(`source.${s}`)}
          </label>
        ))}
      </div>
      {source === 'file' ? (
        <div className={styles.field}>
          <label htmlFor={ids.file}>{t('file')}</label>
          <input
            id={ids.file}
            className="control"
            type="file"
            accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
            onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)}
            aria-describedby={`${ids.file}-hint`}
            aria-invalid={missing || Boolean(problems.file)}
            data-testid="reconcile-file"
          />
          <span id={`${ids.file}-hint`} className={styles.hint}>
            {/* The column names a header may hold are data, in either language: marked as code. */}
            {t.rich('fileHint', { code: (chunks) => <code>{chunks}</code> })}
          </span>
        </div>
      ) : (
        <div className={styles.field}>
          <label htmlFor={ids.paste}>{t('paste')}</label>
          <textarea
            id={ids.paste}
            className={`control ${styles.paste}`}
            rows={8}
            value={paste}
            onChange={(e) => {
              setPaste(e.target.value);
              setMissing(false);
            }}
            placeholder={t('pastePlaceholder')}
            aria-describedby={`${ids.paste}-hint`}
            aria-invalid={missing || Boolean(problems.file)}
            data-testid="reconcile-paste"
          />
          <span id={`${ids.paste}-hint`} className={styles.hint}>
            {t('pasteHint')}
          </span>
        </div>
      )}
      {missing ? (
        <span className={styles.fieldError} role="alert">
          {t('noList')}
        </span>
      ) : null}
      {fieldError('file')}

      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={ids.kind}>{t('kind')}</label>
          <select id={ids.kind} name="kind" className="control" defaultValue="auto" data-testid="reconcile-kind">
            <option value="auto">{t('kindAuto')}</option>
            {RECONCILE_KINDS.map((k: ReconcileKind) => (
              <option key={k} value={k}>
                {t(`kinds.${k}`)}
              </option>
            ))}
          </select>
          {fieldError('kind')}
        </div>
        {shownColumns.length > 1 ? (
          <div className={styles.field}>
            <label htmlFor={ids.column}>{t('column')}</label>
            <select
              id={ids.column}
              name="column"
              className="control"
              defaultValue="auto"
              data-testid="reconcile-column"
            >
              <option value="auto">{t('columnAuto')}</option>
              {shownColumns.map((c, i) => (
                <option key={`${i}-${c}`} value={String(i + 1)}>
                  {c === '' ? t('columnNumber', { n: i + 1 }) : c}
                </option>
              ))}
            </select>
            {fieldError('column')}
          </div>
        ) : null}
      </div>

      <fieldset className={styles.fieldset}>
        <legend>{t('range')}</legend>
        <p className={styles.hint}>{t('rangeHint')}</p>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor={ids.from}>{t('from')}</label>
            <input
              id={ids.from}
              name="date-from"
              type="datetime-local"
              step={1}
              className="control"
              aria-invalid={Boolean(problems['date-from'])}
              data-testid="reconcile-from"
            />
            {fieldError('date-from')}
          </div>
          <div className={styles.field}>
            <label htmlFor={ids.to}>{t('to')}</label>
            <input
              id={ids.to}
              name="date-to"
              type="datetime-local"
              step={1}
              className="control"
              aria-invalid={Boolean(problems['date-to'])}
              data-testid="reconcile-to"
            />
            {fieldError('date-to')}
          </div>
          <div className={styles.field}>
            <span className={styles.label}>{t('zone')}</span>
            <ZoneToggle zone={tz} onChange={setTz} />
          </div>
        </div>
      </fieldset>

      <details className={styles.expected}>
        <summary>{t('expected')}</summary>
        <p className={styles.hint}>{t('expectedHint')}</p>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor={`${ids.kind}-count`}>{t('expectedCount')}</label>
            <input id={`${ids.kind}-count`} name="expected-count" inputMode="numeric" className="control" />
            {fieldError('expected-count')}
          </div>
          <div className={styles.field}>
            <label htmlFor={`${ids.kind}-cost`}>{t('expectedCost')}</label>
            <input id={`${ids.kind}-cost`} name="expected-cost" inputMode="decimal" className="control" />
            {fieldError('expected-cost')}
          </div>
          <div className={styles.field}>
            <label htmlFor={`${ids.kind}-currency`}>{t('currency')}</label>
            <input
              id={`${ids.kind}-currency`}
              name="currency"
              className={`control ${styles.currency}`}
              placeholder="JPY"
              maxLength={3}
            />
            {fieldError('currency')}
          </div>
        </div>
      </details>

      {create.error && !(create.error instanceof ApiError && create.error.problem.errors) ? (
        <p className={styles.error} role="alert">
          {errorText(create.error)}
        </p>
      ) : null}
      <div className={styles.actions}>
        <button
          type="submit"
          className="button button-primary"
          disabled={create.isPending}
          data-testid="reconcile-plan"
        >
          {create.isPending ? t('submitting') : t('submit')}
        </button>
        <span className={styles.hint}>{t('submitHint')}</span>
      </div>
    </form>
  );
}
