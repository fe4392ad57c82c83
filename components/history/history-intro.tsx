'use client';
/**
 * The first thing a newcomer reads on the History page: what the local history is and what it buys.
 */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';

const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;

export function HistoryIntro({ className }: { className?: string }) {
  const t = useTranslations('history.intro');
  return (
    <div className={className}>
      <p>{t.rich('what', { strong })}</p>
      <p>{t.rich('why', { strong })}</p>
    </div>
  );
}
