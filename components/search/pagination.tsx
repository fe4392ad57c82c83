'use client';
/**
 * First / previous / next / last, following the links of the API's answer (they carry the whole
 * query). They are real links — open in a new tab, copy — and a plain click moves in place.
 */
import { useTranslations } from 'next-intl';
import { useRef } from 'react';
import type { TransactionsPage } from '@/lib/search';
import { PAGE_SIZES, type PageSize, type TransactionsQuery } from '@/lib/query/query';
import { useFormat } from '@/lib/i18n/use-format';
import { pageHref, queryOfApiHref } from '@/lib/query/page-url';
import styles from './pagination.module.css';

type LinkName = 'first' | 'prev' | 'next' | 'last';
/** In the order shown; each one's words are the catalogue's `search.pages.<name>` and `<name>Label`. */
const LINKS: LinkName[] = ['first', 'prev', 'next', 'last'];

export interface PaginationProps {
  links: TransactionsPage['_links'];
  page: number;
  pageCount: number;
  total: number;
  onNavigate: (query: TransactionsQuery) => void;
}

export function Pagination({ links, page, pageCount, total, onNavigate }: PaginationProps) {
  const position = useRef<HTMLSpanElement>(null);
  const t = useTranslations('search.pages');
  const f = useFormat();
  return (
    <nav className={styles.pagination} aria-label={t('label')}>
      {/* Said when it changes; focused when the link just used turns into plain text (the last page's Next). */}
      <span className={styles.position} data-testid="page-position" ref={position} tabIndex={-1} aria-live="polite">
        {t('position', {
          page: f.count(page),
          pages: f.count(Math.max(pageCount, 1)),
          total: f.count(total),
          count: total,
        })}
      </span>
      <ul className={styles.links}>
        {LINKS.map((name) => {
          const text = t(name);
          const href = links[name]?.href;
          const target = href ? queryOfApiHref(href) : null;
          const usable = target !== null && target.page !== page;
          return (
            <li key={name}>
              {usable ? (
                <a
                  className="button button-small"
                  href={pageHref(target)}
                  aria-label={t(`${name}Label`, { page: target.page })}
                  rel={name === 'prev' ? 'prev' : name === 'next' ? 'next' : undefined}
                  data-testid={`page-${name}`}
                  onClick={(e) => {
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                    e.preventDefault();
                    onNavigate(target);
                    // On the first or the last page this link is no more: focus would fall to the page's top.
                    const gone = name === 'first' || name === 'prev' ? target.page <= 1 : target.page >= pageCount;
                    if (gone) requestAnimationFrame(() => position.current?.focus());
                  }}
                >
                  {text}
                </a>
              ) : (
                <span
                  className={`button button-small ${styles.disabled}`}
                  aria-disabled="true"
                  data-testid={`page-${name}`}
                >
                  {text}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function PageSizeSelect({ value, onChange }: { value: PageSize; onChange: (size: PageSize) => void }) {
  const t = useTranslations('search.pages');
  return (
    <label className={styles.size}>
      {t('rowsPerPage')}
      <select
        className="control"
        value={value}
        onChange={(e) => onChange(Number(e.target.value) as PageSize)}
        data-testid="page-size"
      >
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
