'use client';
/**
 * The summary's figures in the page's language: a rate as a percent, and a variance with its sign
 * (`+12`, `−3.3%`, `−¥3.08`), which a reader of a bill checks first.
 */
import { useMemo } from 'react';
import { useFormat } from '@/lib/i18n/use-format';

const MINUS = '\u2212';

export function useFigures() {
  const f = useFormat();
  return useMemo(() => {
    const percent = new Intl.NumberFormat(f.locale, { style: 'percent', maximumFractionDigits: 1 });
    const decimal = new Intl.NumberFormat(f.locale, { maximumFractionDigits: 1 });
    const sign = (negative: boolean, zero: boolean) => (negative ? MINUS : zero ? '' : '+');
    return {
      /** 0.934 → "93.4%". */
      rate: (ratio: number) => percent.format(ratio),
      signed: (n: number) => `${sign(n < 0, n === 0)}${f.count(Math.abs(n))}`,
      signedPercent: (p: number) => `${sign(p < 0, p === 0)}${decimal.format(Math.abs(p))}%`,
      /** A decimal string of the upstream's price form, with its sign. */
      signedPrice: (value: string, currency: string) => {
        const negative = value.startsWith('-');
        const abs = negative ? value.slice(1) : value;
        return `${sign(negative, Number(abs) === 0)}${f.price(abs, currency)}`;
      },
    };
  }, [f]);
}
