'use client';
/**
 * The formatters (format.ts) bound to the page's language, for a client component:
 *
 *   const f = useFormat();  …  f.timestamp(cdr.received_at, zone)  f.price(p, 'JPY')  f.count(n)
 */
import { useLocale } from 'next-intl';
import { useMemo } from 'react';
import { formatterFor, type Formatter } from './format';

export function useFormat(): Formatter {
  const locale = useLocale();
  return useMemo(() => formatterFor(locale), [locale]);
}
